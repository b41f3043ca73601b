/// A screen's id: unique within its session and never reused, so a stale tap is always noticed.
public struct ScreenID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { rawValue }
}

/// A link the session kept (opened before sign-in, say) that an event could no longer open, and why.
public struct DroppedLink: Sendable, Hashable, Codable {
    public var link: String
    public var reason: String

    public init(link: String, reason: String) { (self.link, self.reason) = (link, reason) }
}

/// A session's State (README's REST contract): who is signed in, the layers shown, and the one
/// screen that accepts events now. A shell renders it as it is; it never navigates by itself.
public struct SessionState: Sendable, Hashable, Codable {
    /// The session's id.
    public var id: String
    /// Grows by one with each applied event; the `ETag`.
    public var version: Int
    /// The signed-in user, or nil.
    public var user: User?
    /// The layers, bottom (the root) to top: each later one is presented over the one before.
    public var stack: [Layer]
    /// The one screen that accepts events now (nil only for an empty stack).
    public var top: ScreenID?
    /// The top screen's canonical link (`/posts/7`), when the app declares one for it: what a
    /// shell shares, or restores its place from.
    public var link: String?

    public init(id: String, version: Int, user: User?, stack: [Layer], top: ScreenID?, link: String? = nil) {
        (self.id, self.version, self.user, self.stack, self.top, self.link) = (id, version, user, stack, top, link)
    }

    /// Every screen of every layer and tab, bottom to top.
    public var allScreens: [Screen] { stack.flatMap(\.allScreens) }

    /// The screen that accepts events now.
    public var topScreen: Screen? { top.flatMap { top in allScreens.first { $0.id == top } } }
}

/// The signed-in user as the State shows it.
public struct User: Sendable, Hashable, Codable {
    public var id: Int
    public var displayName: String?

    public init(id: Int, displayName: String?) { (self.id, self.displayName) = (id, displayName) }
}

/// How a layer is shown: the root, a modal sheet over the layer before, or an alert.
public struct Presentation: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static let root = Presentation(rawValue: "root")
    public static let modal = Presentation(rawValue: "modal")
    public static let alert = Presentation(rawValue: "alert")
}

/// One layer: a navigation stack of screens, or a tab container whose tabs each hold a stack.
public struct Layer: Sendable, Hashable, Codable {
    public var presentation: Presentation
    /// The stack, bottom to top; nil for a tab layer.
    public var screens: [Screen]?
    /// The tabs; nil for a stack layer.
    public var tabs: [SessionTab]?
    /// The selected tab's name (tab layers only).
    public var selectedTab: String?

    public init(presentation: Presentation, screens: [Screen]? = nil, tabs: [SessionTab]? = nil, selectedTab: String? = nil) {
        (self.presentation, self.screens, self.tabs, self.selectedTab) = (presentation, screens, tabs, selectedTab)
    }

    /// The screens of this layer: its stack, or every tab's stack in order.
    public var allScreens: [Screen] { screens ?? (tabs ?? []).flatMap(\.screens) }
}

/// A tab of a tab layer, with its own stack.
public struct SessionTab: Sendable, Hashable, Codable {
    public var name: String
    public var title: String
    public var screens: [Screen]

    public init(name: String, title: String, screens: [Screen]) {
        (self.name, self.title, self.screens) = (name, title, screens)
    }
}

/// A screen as shown: its name (its entry in the catalog), props, and the events it accepts now
/// (only the top screen accepts any).
public struct Screen: Sendable, Hashable, Codable, Identifiable {
    public var id: ScreenID
    public var name: String
    public var props: [String: JSONValue]
    public var events: [String]

    public init(id: ScreenID, name: String, props: [String: JSONValue] = [:], events: [String] = []) {
        (self.id, self.name, self.props, self.events) = (id, name, props, events)
    }
}
