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

/// A named, typed field of a screen's props or of an event's payload.
public struct FieldDeclaration: Sendable, Hashable, Codable {
    public let name: String
    public let type: FieldType
    public let optional: Bool

    public init(_ name: String, _ type: FieldType, optional: Bool = false) {
        self.name = name
        self.type = type
        self.optional = optional
    }

    public static func string(_ name: String, optional: Bool = false) -> Self { Self(name, .string, optional: optional) }
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
public struct ScreenDefinition: Sendable, Hashable {
    public let name: String
    public let props: [FieldDeclaration]
    public let events: [EventDeclaration]
    /// One line for the catalog.
    public let summary: String

    public init(_ name: String, summary: String = "", props: [FieldDeclaration] = [], events: [EventDeclaration] = []) {
        self.name = name
        self.summary = summary
        self.props = props
        self.events = events
    }

    public func event(named name: String) -> EventDeclaration? { events.first { $0.name == name } }
}
