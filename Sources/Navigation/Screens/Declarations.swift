/// The type of a declared prop or payload field.
public enum FieldType: String, Sendable, Codable {
    case string
    /// A string the client must mask and the server never echoes back.
    case password
    case integer
    /// A number with or without a fraction (a `Double`).
    case number
    /// An instant: an RFC 3339 string in UTC, `2026-11-23T13:46:40Z` (a `Date`).
    case dateTime = "date-time"
    case boolean
    case object
    case array
    /// An absolute URL (a `URL`): a link, or an image the client loads.
    case url
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
    /// The field's or event's name on the wire.
    public let name: String
    /// Its JSON type.
    public let type: FieldType
    /// True when it may be absent or null.
    public let optional: Bool
    /// For strings: which characters the field accepts.
    public let text: TextRule
    /// For objects: their members, when the type tells them (nil for a dictionary or free-form JSON).
    public let members: [FieldDeclaration]?
    /// For lists: what each item is, when the type tells it. (A one-element array: a struct
    /// cannot hold an optional of itself.)
    private let itemStorage: [FieldDeclaration]

    /// For lists: what each item is (its name is empty), when the type tells it.
    public var items: FieldDeclaration? { itemStorage.first }

    /// A field `name` of `type`; an object's `members` and a list's `items` when known.
    public init(
        _ name: String, _ type: FieldType, optional: Bool = false, text: TextRule? = nil,
        members: [FieldDeclaration]? = nil, items: FieldDeclaration? = nil
    ) {
        self.name = name
        self.type = type
        self.optional = optional
        self.text = text ?? (type == .password ? .secret : .text)
        self.members = type == .object ? members : nil
        self.itemStorage = type == .array ? items.map { [$0] } ?? [] : []
    }

    /// This field under another name, or optional.
    func named(_ name: String, optional: Bool) -> Self {
        Self(name, type, optional: optional, text: text, members: members, items: items)
    }

    private enum CodingKeys: String, CodingKey {
        case name, type, optional, text, members, items
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name), try container.decode(FieldType.self, forKey: .type),
            optional: try container.decode(Bool.self, forKey: .optional), text: try container.decode(TextRule.self, forKey: .text),
            members: try container.decodeIfPresent([FieldDeclaration].self, forKey: .members),
            items: try container.decodeIfPresent(FieldDeclaration.self, forKey: .items))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        try container.encode(optional, forKey: .optional)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(members, forKey: .members)
        try container.encodeIfPresent(items, forKey: .items)
    }

    /// A free-text string field.
    public static func string(_ name: String, optional: Bool = false) -> Self { Self(name, .string, optional: optional) }
    /// A string that identifies something to people: an e-mail address, a display name.
    public static func identifier(_ name: String, optional: Bool = false) -> Self {
        Self(name, .string, optional: optional, text: .identifier)
    }
    /// A password field.
    public static func password(_ name: String) -> Self { Self(name, .password) }
    /// An integer field.
    public static func integer(_ name: String, optional: Bool = false) -> Self { Self(name, .integer, optional: optional) }
    /// A number field (a fraction allowed).
    public static func number(_ name: String, optional: Bool = false) -> Self { Self(name, .number, optional: optional) }
    /// An instant, as an RFC 3339 string.
    public static func dateTime(_ name: String, optional: Bool = false) -> Self {
        Self(name, .dateTime, optional: optional)
    }
    /// A boolean field.
    public static func boolean(_ name: String, optional: Bool = false) -> Self { Self(name, .boolean, optional: optional) }
    /// An object field.
    public static func object(_ name: String, optional: Bool = false) -> Self { Self(name, .object, optional: optional) }
    /// An array field.
    public static func array(_ name: String) -> Self { Self(name, .array) }
    /// A URL field.
    public static func url(_ name: String, optional: Bool = false) -> Self { Self(name, .url, optional: optional) }
}

/// An output a screen declares: its name and the fields of its payload.
public struct EventDeclaration: Sendable, Hashable, Codable {
    /// The event's name on the wire.
    public let name: String
    /// The fields of its payload.
    public let fields: [FieldDeclaration]

    /// An event `name` with a payload of `fields`.
    public init(_ name: String, _ fields: [FieldDeclaration] = []) {
        self.name = name
        self.fields = fields
    }
}

/// A screen type: its name, the props its coordinator feeds it, and the events it reports.
/// Screens are inert: they display props and report events; they never navigate.
package struct ScreenDefinition: Sendable {
    package let name: String
    package let props: [FieldDeclaration]
    package let events: [EventDeclaration]
    /// One line for the catalog.
    package let summary: String
    /// How a generic client should present it.
    package let presentation: ScreenPresentation
    /// What the props are made of, nested members and list items included.
    let propsShape: Shape
    /// What each event's payload is made of, by event name.
    let payloadShapes: [String: Shape]
    /// The `ScreenType` it was read from; nil for a definition written by hand.
    let type: ObjectIdentifier?
    /// How errors name it: its Swift type, or its name.
    let typeDescription: String
    /// Its props' and payloads' schemas, for documents.
    package let schemas: ScreenSchemas

    /// A definition written by hand: the members of object and list fields are not known.
    package init(
        _ name: String, summary: String = "", props: [FieldDeclaration] = [], events: [EventDeclaration] = [],
        presentation: ScreenPresentation = ScreenPresentation()
    ) {
        func shape(_ fields: [FieldDeclaration]) -> Shape {
            .object(
                Dictionary(
                    fields.map { field in
                        (field.name, field.type == .object ? .unknown : field.type == .array ? .array(.unknown) : .scalar)
                    }, uniquingKeysWith: { first, _ in first }))
        }
        self.init(
            name, summary: summary, props: props, events: events, presentation: presentation, propsShape: shape(props),
            payloadShapes: Dictionary(events.map { ($0.name, shape($0.fields)) }, uniquingKeysWith: { first, _ in first }),
            type: nil, typeDescription: "screen \"\(name)\"",
            schemas: ScreenSchemas(
                props: .object("", props),
                payloads: Dictionary(events.map { ($0.name, .object("", $0.fields)) }, uniquingKeysWith: { first, _ in first })))
    }

    init(
        _ name: String, summary: String, props: [FieldDeclaration], events: [EventDeclaration],
        presentation: ScreenPresentation, propsShape: Shape, payloadShapes: [String: Shape], type: ObjectIdentifier?,
        typeDescription: String, schemas: ScreenSchemas
    ) {
        self.name = name
        self.summary = summary
        self.props = props
        self.events = events
        self.presentation = presentation
        self.propsShape = propsShape
        self.payloadShapes = payloadShapes
        self.type = type
        self.typeDescription = typeDescription
        self.schemas = schemas
    }

    package func event(named name: String) -> EventDeclaration? { events.first { $0.name == name } }
}

/// A screen's props and each event's payload as schemas (`ValueSchema`), for documents.
package struct ScreenSchemas: Sendable {
    /// What the props are.
    package let props: ValueSchema
    /// What each declared event's payload is, by event name.
    package let payloads: [String: ValueSchema]
}
