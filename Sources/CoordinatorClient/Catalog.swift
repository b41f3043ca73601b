/// The screen catalog (`GET /v1/screens`): every screen the app can show, its props and the
/// events it declares with their payload fields. A generic shell renders any State from it.
///
/// Only the members a shell needs to find its way are typed; each entry keeps everything the
/// server sent in `json`, so members a newer server adds (input hints, rules) reach the shell.
public struct Catalog: Sendable, Hashable, Decodable {
    public var screens: [ScreenDeclaration]
    /// The events every screen accepts: `back`, `dismiss`, `selectTab`.
    public var systemEvents: [EventDeclaration]
    /// The catalog's `ETag`, when the server sent one: it changes when a deploy changes the catalog.
    public var etag: String?

    /// The declaration of the screen called `name`.
    public func screen(named name: String) -> ScreenDeclaration? { screens.first { $0.name == name } }

    /// The declaration of `screen`'s event `event`, or of the system event of that name.
    public func event(_ event: String, of screen: String) -> EventDeclaration? {
        self.screen(named: screen)?.events.first { $0.name == event } ?? systemEvents.first { $0.name == event }
    }

    private enum CodingKeys: String, CodingKey { case screens, systemEvents }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        screens = try container.decode([ScreenDeclaration].self, forKey: .screens)
        systemEvents = try container.decode([EventDeclaration].self, forKey: .systemEvents)
    }
}

/// One screen of the catalog.
public struct ScreenDeclaration: Sendable, Hashable, Decodable {
    public var name: String
    public var summary: String?
    public var props: [FieldDeclaration]
    public var events: [EventDeclaration]
    /// How the app asks a generic shell to present the screen (titles, labels, roles, list actions).
    public var presentation: JSONValue?
    /// The whole entry as sent.
    public var json: JSONValue

    private enum CodingKeys: String, CodingKey { case name, summary, props, events, presentation }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        summary = try container.decodeIfPresent(String.self, forKey: .summary)
        props = try container.decode([FieldDeclaration].self, forKey: .props)
        events = try container.decode([EventDeclaration].self, forKey: .events)
        presentation = try container.decodeIfPresent(JSONValue.self, forKey: .presentation)
        json = try JSONValue(from: decoder)
    }

    /// The title the app declared for the screen, if any.
    public var title: String? { presentation?["title"]?.stringValue }
}

/// An event a screen declares, with its payload fields.
public struct EventDeclaration: Sendable, Hashable, Decodable {
    public var name: String
    public var fields: [FieldDeclaration]
    /// The whole entry as sent.
    public var json: JSONValue

    private enum CodingKeys: String, CodingKey { case name, fields }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        fields = try container.decode([FieldDeclaration].self, forKey: .fields)
        json = try JSONValue(from: decoder)
    }
}

/// A prop or payload field: its name, its type (`string`, `password`, `integer`, `number`,
/// `date-time`, `boolean`, `object`, `array`, or one a newer server adds) and whether it may be absent.
public struct FieldDeclaration: Sendable, Hashable, Decodable {
    public var name: String
    public var type: String
    public var optional: Bool
    /// The whole entry as sent.
    public var json: JSONValue

    private enum CodingKeys: String, CodingKey { case name, type, optional }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        type = try container.decode(String.self, forKey: .type)
        optional = try container.decodeIfPresent(Bool.self, forKey: .optional) ?? false
        json = try JSONValue(from: decoder)
    }
}
