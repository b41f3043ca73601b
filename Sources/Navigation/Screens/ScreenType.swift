/// A screen, declared once as types: what it shows (`Props`, a `Codable` value fed by its
/// coordinator), what the user can do on it (`Output`, an enum with typed payloads), and how a
/// generic client should present it. Its catalog entry and its wire names come from these
/// types, so the catalog cannot say one thing and the screen carry another, and a mistyped
/// screen or event in a coordinator does not compile.
///
/// ```swift
/// enum Search: ScreenType {
///     static let name = "search"
///     struct Props: Codable, Sendable { var query: String; var results: [Hit] }
///     @ScreenEvents  // module NavigationMacros: each case is an event named after it
///     enum Output {
///         case find(text: String, page: Int?)
///         case clear
///     }
/// }
/// ```
///
/// Without the macro, an `Output: ScreenOutput` lists its events with their wire names:
/// `static let events: [OutputEvent<Output>] = [.event("find", Output.find), .event("clear", .clear)]`.
public protocol ScreenType: Sendable {
    associatedtype Props: Codable & Sendable = NoProps
    associatedtype Output: ScreenOutput = NoOutput
    /// The name clients see (`search`); unique within an app. By default the type's name without
    /// its `Screen` suffix, its first word lower-cased (`SearchScreen` → `search`, `SignUpEmailScreen`
    /// → `signUpEmail`). Declare it to keep a wire name when you rename the type.
    static var name: String { get }
    /// One line for the catalog.
    static var summary: String { get }
    /// How a generic client should present it (title, labels, roles, item actions).
    static var presentation: ScreenPresentation { get }
}

extension ScreenType {
    /// The type's name without its `Screen` suffix, lower camel case (`SearchScreen` → `search`).
    public static var name: String { TypeNames.derived(from: Self.self, dropping: "Screen", lowerFirst: true) }
    /// No summary.
    public static var summary: String { "" }
    /// Nothing declared: the client derives titles and labels from names.
    public static var presentation: ScreenPresentation { ScreenPresentation() }
}

/// What a screen reports: an enum whose cases carry typed payloads, with the wire name of each
/// (`@ScreenEvents` declares them from the cases).
public protocol ScreenOutput: Sendable {
    /// Every event the screen declares, in the order a client should offer them.
    static var events: [OutputEvent<Self>] { get }
}

/// The props of a screen that shows nothing but itself.
public struct NoProps: Codable, Sendable, Hashable {
    /// No props.
    public init() {}
}

/// The output of a screen that reports nothing (the system events still apply).
public enum NoOutput: ScreenOutput {
    /// No events.
    public static var events: [OutputEvent<NoOutput>] { [] }
}

/// One event of a screen: its wire name, its payload's type, and the output it becomes.
public struct OutputEvent<Output: ScreenOutput>: Sendable {
    /// The event's wire name.
    public let name: String
    let fields: [FieldDeclaration]
    /// What the payload is made of, nested members included.
    let shape: Shape
    @usableFromInline let make: @Sendable (JSONValue) throws -> Output
    /// The payload a client sends for `output`, or nil when `output` is another event; nil for
    /// events declared without it (`IncomingEvent` then reads the case's value by reflection).
    var payload: (@Sendable (Output) throws -> JSONValue?)? = nil
    /// The payload's schema, for documents.
    var schema: ValueSchema = .object(type: "", members: [], complete: true)

    /// An event without payload: `.event("clear", .clear)`.
    public static func event(_ name: String, _ output: Output) -> Self {
        OutputEvent(name: name, fields: [], shape: .object([:]), make: { _ in output })
    }

    /// An event whose payload decodes to `Payload`: `.event("find", Output.find)`.
    public static func event<Payload: Codable & Sendable>(
        _ name: String, _ make: @escaping @Sendable (Payload) -> Output
    ) -> Self {
        OutputEvent(
            name: name, fields: Schema.fields(of: Payload.self), shape: Schema.shape(of: Payload.self),
            make: { payload in make(try JSONValue.decode(Payload.self, from: payload)) },
            schema: Schema.valueSchema(of: Payload.self))
    }

    var declaration: EventDeclaration { EventDeclaration(name, fields) }
}

/// A string field that people compare and see (an e-mail, a name): it refuses control,
/// invisible and bidirectional-control characters with `422`.
@propertyWrapper
public struct Identifier: TextField {
    /// The text.
    public var wrappedValue: String
    /// The field holding `wrappedValue`.
    public init(wrappedValue: String) { self.wrappedValue = wrappedValue }
    /// A string in the catalog.
    public static var fieldType: FieldType { .string }
    /// No control, invisible or bidi-control characters.
    public static var textRule: TextRule { .identifier }
}

/// A password field: clients mask it, the server never echoes it, any character counts.
@propertyWrapper
public struct Password: TextField {
    /// The password.
    public var wrappedValue: String
    /// The field holding `wrappedValue`.
    public init(wrappedValue: String) { self.wrappedValue = wrappedValue }
    /// A password in the catalog (clients mask it).
    public static var fieldType: FieldType { .password }
    /// Any character.
    public static var textRule: TextRule { .secret }
}

/// A string field type with its own rule (`Identifier`, `Password`): on the wire, just the string.
public protocol TextField: Codable, Sendable, Hashable {
    /// The text.
    var wrappedValue: String { get }
    /// The field holding `wrappedValue`.
    init(wrappedValue: String)
    /// The field's type in the catalog.
    static var fieldType: FieldType { get }
    /// Which characters it accepts (checked before any flow sees the payload).
    static var textRule: TextRule { get }
}

extension TextField {
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// Each screen type's definition, read off its types once.
private let knownDefinitions = TypeMemo<ScreenDefinition>()

extension ScreenType {
    /// The runtime's description of this screen, from its types.
    static var definition: ScreenDefinition {
        knownDefinitions.value(for: Self.self) {
            ScreenDefinition(
                name, summary: summary, props: Schema.fields(of: Props.self),
                events: Output.events.map(\.declaration), presentation: presentation,
                propsShape: Schema.shape(of: Props.self),
                payloadShapes: Dictionary(Output.events.map { ($0.name, $0.shape) }, uniquingKeysWith: { first, _ in first }),
                type: ObjectIdentifier(Self.self), typeDescription: "\(Self.self)",
                schemas: ScreenSchemas(
                    // `NoProps` decodes nothing, yet is always sent as `{}`.
                    props: Props.self == NoProps.self
                        ? .object(type: "NoProps", members: [], complete: true) : Schema.valueSchema(of: Props.self),
                    payloads: Dictionary(Output.events.map { ($0.name, $0.schema) }, uniquingKeysWith: { first, _ in first })))
        }
    }

    /// `props` serialized as the screen carries them: every field present, `null` for a missing optional.
    static func json(_ props: Props) throws -> [UInt8] {
        if let writable = props as? any JSONWritableObject {
            // Its fields are the schema's (`@JSONWritable` writes each stored property).
            var output: [UInt8] = []
            output.reserveCapacity(512)
            try writable.writeJSON(to: &output, nullForNil: true)
            return output
        }
        return try JSONValueEncoder().serialize(props, nullFields: Schema.fields(of: Props.self).lazy.map(\.name))
    }
}
