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
    /// The label shown; derived from the name when nil, none when empty (then `accessibilityLabel`
    /// is required: every field has a name a screen reader can say).
    public var label: String?
    /// What assistive technology says for the field; the label (or the derived one) when nil.
    public var accessibilityLabel: String?
    /// How a payload field is entered.
    public var input: InputKind?
    /// What the platform may fill in (a saved e-mail, a new password to generate, a code from a text message).
    public var autofill: Autofill?
    /// How a prop is shown.
    public var display: DisplayKind?
    /// The fewest characters the server accepts, for the client to say so before sending.
    public var minLength: Int?
    /// The most characters the server accepts.
    public var maxLength: Int?
    /// A regular expression (ECMAScript syntax, matched against the whole value) the server's rule implies.
    public var pattern: String?

    /// A field's presentation. `length` sets `minLength` and `maxLength` from a `TextLimit` the
    /// app checks the field with.
    public init(
        label: String? = nil, accessibilityLabel: String? = nil, input: InputKind? = nil, autofill: Autofill? = nil,
        display: DisplayKind? = nil, length: TextLimit? = nil, pattern: String? = nil
    ) {
        self.label = label
        self.accessibilityLabel = accessibilityLabel
        self.input = input
        self.autofill = autofill
        self.display = display
        self.minLength = length.map { $0.characters.lowerBound }
        self.maxLength = length.map { $0.characters.upperBound }
        self.pattern = pattern
    }

    /// A field known by `label`.
    public static func label(_ label: String) -> Self { Self(label: label) }
    /// A field shown without a visible label (its value speaks for itself), known to assistive
    /// technology as `accessibilityLabel`.
    public static func unlabeled(_ accessibilityLabel: String) -> Self {
        Self(label: "", accessibilityLabel: accessibilityLabel)
    }
    /// A prop the client does not show (a cursor, an id).
    public static let hidden = Self(display: .hidden)
}

/// How a payload field is entered.
public enum InputKind: String, Sendable, Hashable, CaseIterable {
    case text, email, password, multiline, number
    /// A web address.
    case url
    /// A telephone number.
    case tel
    /// A calendar date and time (`date-time` fields).
    case dateTime = "date-time"
}

/// What the platform may fill a field with: HTML `autocomplete` tokens, which native shells map
/// to their own (`UITextContentType`, Android autofill hints).
public enum Autofill: String, Sendable, Hashable, CaseIterable {
    /// The account's user name or e-mail, at sign-in.
    case username
    case email
    /// A password being chosen: the platform may suggest a strong one and save it.
    case newPassword = "new-password"
    /// The password the user already has.
    case currentPassword = "current-password"
    /// A code sent by text message or e-mail.
    case oneTimeCode = "one-time-code"
    /// A person's full name, or what they go by.
    case name
    case nickname
    case streetAddress = "street-address"
    /// The city of an address.
    case city = "address-level2"
    case postalCode = "postal-code"
    case country = "country-name"
    case tel
    case url
    /// Nothing to fill in: the platform offers no suggestions.
    case off
}

/// How a prop is shown.
public enum DisplayKind: String, Sendable, Hashable {
    /// Plain text (the default).
    case text
    /// Prominent, as the screen's subject.
    case heading
    /// A `2026-11-21T05:28:14Z` instant, shown in the reader's local date and time.
    case timestamp
    /// A URL shown as the image it names.
    case image
    /// A URL shown as a link.
    case link
    /// Not shown.
    case hidden
}

/// What an event does, for its button's look.
public enum EventRole: String, Sendable, Hashable {
    case primary, secondary, cancel, destructive
}

/// An event's button: its label and role.
public struct EventPresentation: Sendable, Hashable {
    /// The button's label; derived from the event's name when nil. Never empty.
    public var label: String?
    /// What assistive technology says for the button; the label when nil (`✕` → "Close").
    public var accessibilityLabel: String?
    /// What the event does, for its button's look.
    public var role: EventRole

    /// An event's presentation.
    public init(label: String? = nil, accessibilityLabel: String? = nil, role: EventRole = .secondary) {
        self.label = label
        self.accessibilityLabel = accessibilityLabel
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
                if let label = field.accessibilityLabel { entry["accessibilityLabel"] = .string(label) }
                if let input = field.input { entry["input"] = .string(input.rawValue) }
                if let autofill = field.autofill { entry["autofill"] = .string(autofill.rawValue) }
                if let display = field.display { entry["display"] = .string(display.rawValue) }
                if let minLength = field.minLength { entry["minLength"] = .int(minLength) }
                if let maxLength = field.maxLength { entry["maxLength"] = .int(maxLength) }
                if let pattern = field.pattern { entry["pattern"] = .string(pattern) }
                return .object(entry)
            })
        members["events"] = .object(
            events.mapValues { event in
                var entry: [String: JSONValue] = ["role": .string(event.role.rawValue)]
                if let label = event.label { entry["label"] = .string(label) }
                if let label = event.accessibilityLabel { entry["accessibilityLabel"] = .string(label) }
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
