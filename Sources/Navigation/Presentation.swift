/// How a generic client should present a screen, so that it looks like an app and not a state
/// viewer: a title, field labels and input kinds, which props are shown and how, each event's
/// label and role, and how a list item opens the event it leads to. Declared, never guessed.
public struct ScreenPresentation: Sendable {
    /// The title shown; the client derives one from the screen's name when nil.
    public var title: String?
    /// Props and payload fields by name.
    public var fields: [String: FieldPresentation]
    /// Events by name.
    public var events: [String: EventPresentation]
    /// How items of list props (and objects inside them) open events.
    public var itemActions: [ItemAction]

    /// A presentation; every part may be left out.
    public init(
        title: String? = nil, fields: [String: FieldPresentation] = [:], events: [String: EventPresentation] = [:],
        itemActions: [ItemAction] = []
    ) {
        self.title = title
        self.fields = fields
        self.events = events
        self.itemActions = itemActions
    }
}

/// How a prop is shown, or a payload field is entered.
public struct FieldPresentation: Sendable, Hashable {
    /// The label shown; derived from the name when nil, none when empty.
    public var label: String?
    /// How a payload field is entered.
    public var input: InputKind?
    /// How a prop is shown.
    public var display: DisplayKind?

    /// A field's presentation.
    public init(label: String? = nil, input: InputKind? = nil, display: DisplayKind? = nil) {
        self.label = label
        self.input = input
        self.display = display
    }

    /// A field known by `label`.
    public static func label(_ label: String) -> Self { Self(label: label) }
    /// A prop the client does not show (a cursor, an id).
    public static let hidden = Self(display: .hidden)
}

/// How a payload field is entered.
public enum InputKind: String, Sendable, Hashable {
    case text, email, password, multiline, number
}

/// How a prop is shown.
public enum DisplayKind: String, Sendable, Hashable {
    /// Plain text (the default).
    case text
    /// Prominent, as the screen's subject.
    case heading
    /// A `2026-11-21T05:28:14Z` instant, shown in the reader's local date and time.
    case timestamp
    /// Not shown.
    case hidden
}

/// What an event does, for its button's look.
public enum EventRole: String, Sendable, Hashable {
    case primary, secondary, cancel, destructive
}

/// An event's button: its label and role.
public struct EventPresentation: Sendable, Hashable {
    /// The button's label; derived from the event's name when nil.
    public var label: String?
    /// What the event does, for its button's look.
    public var role: EventRole

    /// An event's presentation.
    public init(label: String? = nil, role: EventRole = .secondary) {
        self.label = label
        self.role = role
    }

    /// The screen's main action.
    public static func primary(_ label: String) -> Self { Self(label: label, role: .primary) }
    /// Another action.
    public static func secondary(_ label: String) -> Self { Self(label: label, role: .secondary) }
    /// An action that goes back without changing anything.
    public static func cancel(_ label: String) -> Self { Self(label: label, role: .cancel) }
    /// An action that deletes or cannot be undone.
    public static func destructive(_ label: String) -> Self { Self(label: label, role: .destructive) }
}

/// How a list item (or an object inside one) opens an event: a `posts` item opens `openPost`
/// with its `id` as `postId`; its `author` opens `openUser` with the author's `id` as `userId`.
public struct ItemAction: Sendable, Hashable {
    /// The list prop (`posts`), or a list prop and an object inside its items (`posts.author`),
    /// or an object prop (`post.author`).
    public var path: String
    /// The event the item opens.
    public var event: String
    /// The payload field the item's key goes into.
    public var field: String
    /// The item's member that names it.
    public var key: String
    /// The item's member shown as its title, and as its subtitle.
    public var title: String?
    /// The item's member shown under its title.
    public var subtitle: String?

    /// Items at `path` open `event` with their `key` as `field`.
    public init(_ path: String, opens event: String, with field: String, from key: String = "id", title: String? = nil,
        subtitle: String? = nil)
    {
        self.path = path
        self.event = event
        self.field = field
        self.key = key
        self.title = title
        self.subtitle = subtitle
    }
}

extension ScreenPresentation {
    /// The catalog's `presentation` member.
    var json: JSONValue {
        var members: [String: JSONValue] = [:]
        if let title { members["title"] = .string(title) }
        members["fields"] = .object(
            fields.mapValues { field in
                var entry: [String: JSONValue] = [:]
                if let label = field.label { entry["label"] = .string(label) }
                if let input = field.input { entry["input"] = .string(input.rawValue) }
                if let display = field.display { entry["display"] = .string(display.rawValue) }
                return .object(entry)
            })
        members["events"] = .object(
            events.mapValues { event in
                var entry: [String: JSONValue] = ["role": .string(event.role.rawValue)]
                if let label = event.label { entry["label"] = .string(label) }
                return .object(entry)
            })
        members["itemActions"] = .array(
            itemActions.map { action in
                var entry: [String: JSONValue] = [
                    "path": .string(action.path), "event": .string(action.event), "field": .string(action.field),
                    "key": .string(action.key),
                ]
                if let title = action.title { entry["title"] = .string(title) }
                if let subtitle = action.subtitle { entry["subtitle"] = .string(subtitle) }
                return .object(entry)
            })
        return .object(members)
    }
}
