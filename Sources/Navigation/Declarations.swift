/// The type of a declared prop or payload field.
public enum FieldType: String, Sendable, Codable {
    case string
    /// A string the client must mask and the server never echoes back.
    case password
    case integer
    case boolean
    case object
    case array
}

/// Which characters a string field accepts.
public enum TextRule: String, Sendable, Hashable, Codable {
    /// Free text: anything but control characters (tab and line breaks are allowed).
    case text
    /// Something people compare and see (an e-mail, a name): no control, invisible or
    /// bidirectional-control characters, which would let two values look alike.
    case identifier
    /// A password: any character counts (NIST SP 800-63B), it is never shown or compared.
    case secret
}

/// A named, typed field of a screen's props or of an event's payload.
public struct FieldDeclaration: Sendable, Hashable, Codable {
    public let name: String
    public let type: FieldType
    public let optional: Bool
    /// For strings: which characters the field accepts.
    public let text: TextRule

    public init(_ name: String, _ type: FieldType, optional: Bool = false, text: TextRule? = nil) {
        self.name = name
        self.type = type
        self.optional = optional
        self.text = text ?? (type == .password ? .secret : .text)
    }

    public static func string(_ name: String, optional: Bool = false) -> Self { Self(name, .string, optional: optional) }
    /// A string that identifies something to people: an e-mail address, a display name.
    public static func identifier(_ name: String, optional: Bool = false) -> Self {
        Self(name, .string, optional: optional, text: .identifier)
    }
    public static func password(_ name: String) -> Self { Self(name, .password) }
    public static func integer(_ name: String, optional: Bool = false) -> Self { Self(name, .integer, optional: optional) }
    public static func boolean(_ name: String, optional: Bool = false) -> Self { Self(name, .boolean, optional: optional) }
    public static func object(_ name: String, optional: Bool = false) -> Self { Self(name, .object, optional: optional) }
    public static func array(_ name: String) -> Self { Self(name, .array) }
}

/// An output a screen declares: its name and the fields of its payload.
public struct EventDeclaration: Sendable, Hashable, Codable {
    public let name: String
    public let fields: [FieldDeclaration]

    public init(_ name: String, _ fields: [FieldDeclaration] = []) {
        self.name = name
        self.fields = fields
    }
}

/// A screen type: its name, the props its coordinator feeds it, and the events it reports.
/// Screens are inert: they display props and report events; they never navigate.
public struct ScreenDefinition: Sendable {
    public let name: String
    public let props: [FieldDeclaration]
    public let events: [EventDeclaration]
    /// One line for the catalog.
    public let summary: String
    /// How a generic client should present it.
    public let presentation: ScreenPresentation

    public init(
        _ name: String, summary: String = "", props: [FieldDeclaration] = [], events: [EventDeclaration] = [],
        presentation: ScreenPresentation = ScreenPresentation()
    ) {
        self.name = name
        self.summary = summary
        self.props = props
        self.events = events
        self.presentation = presentation
    }

    public func event(named name: String) -> EventDeclaration? { events.first { $0.name == name } }
}
