/// One screen on a stack: what it is, what it shows, and which coordinator owns it.
public struct Screen: Sendable, Hashable, Codable {
    /// Its id, unique in the session and never reused.
    public let id: ScreenID
    /// Its screen type's name.
    public let name: String
    /// The coordinator that showed it and receives its events.
    public let owner: CoordinatorID
    /// The props, kept only serialized: every answer and snapshot embeds these bytes as they are,
    /// and a resident session holds one compact copy. Flows read props rarely; reading parses.
    private(set) var propsJSON: [UInt8]
    /// Its canonical link, once known: found from the typed props when the screen was made, or
    /// from the serialized props once. Derived from `name` and the props: never stored, never compared.
    var link: CanonicalLink = .unknown
    /// `"id":"…","name":"…"`, as every snapshot and State writes it: made once, since both write
    /// every screen of the session for every event (two escaped strings each). Derived, never compared.
    private(set) var identityJSON: [UInt8] = []

    /// What the screen shows. Reading parses `propsJSON`; writing serializes it.
    public var props: [String: JSONValue] {
        get { (try? JSONValue.parse(propsJSON))?.objectValue ?? [:] }
        set { setPropsJSON(JSONValue.object(newValue).serialized()) }
    }

    init(id: ScreenID, name: String, props: [String: JSONValue], owner: CoordinatorID, link: CanonicalLink = .unknown) {
        self.init(id: id, name: name, propsJSON: JSONValue.object(props).serialized(), owner: owner, link: link)
    }

    /// A screen whose props are already serialized canonically (sorted keys, compact).
    init(id: ScreenID, name: String, propsJSON: [UInt8], owner: CoordinatorID, link: CanonicalLink = .unknown) {
        self.id = id
        self.name = name
        self.owner = owner
        self.propsJSON = propsJSON
        self.link = link
        identityJSON = Self.identityJSON(id: id, name: name)
    }

    private static func identityJSON(id: ScreenID, name: String) -> [UInt8] {
        var output: [UInt8] = []
        output.appendLiteral(#""id":"#)
        JSONValue.writeString(id.rawValue, to: &output)
        output.appendLiteral(#","name":"#)
        JSONValue.writeString(name, to: &output)
        // Kept for the screen's life in every resident session: no spare capacity.
        return output.withUnsafeBufferPointer { [UInt8]($0) }
    }

    /// Replaces the props with props already serialized canonically.
    mutating func setPropsJSON(_ bytes: [UInt8]) {
        propsJSON = bytes
        link = .unknown
    }

    enum CodingKeys: String, CodingKey {
        case id, name, props, owner
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(ScreenID.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            props: try container.decode([String: JSONValue].self, forKey: .props),
            owner: try container.decode(CoordinatorID.self, forKey: .owner))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(props, forKey: .props)
        try container.encode(owner, forKey: .owner)
    }

    /// Serialization is canonical (sorted keys), so equal props are equal bytes.
    public static func == (lhs: Screen, rhs: Screen) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.owner == rhs.owner && lhs.propsJSON == rhs.propsJSON
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}

/// A screen's canonical link as far as it is known. Finding it from serialized props means
/// parsing and decoding them all (a list of posts, say), so it is found once per screen.
package enum CanonicalLink: Sendable {
    /// Not looked for yet (a screen restored from a snapshot, or whose props changed).
    case unknown
    /// The app has no canonical link for this screen.
    case absent
    case known(String)
}

/// How a layer is shown: the root, a modal sheet over what is below, or an alert.
public enum Presentation: String, Sendable, Codable {
    case root, modal, alert
}

/// One tab of a tab container: its name, its title, and its own stack.
public struct Tab: Sendable, Hashable, Codable {
    /// The tab's name.
    public let name: String
    /// The title its tab shows.
    public let title: String
    /// Its stack, bottom to top.
    public var screens: [Screen]
}

/// A tab to create: its name and title.
public struct TabSpec: Sendable, Hashable {
    /// The tab's key.
    public let name: TabKey
    /// The title its tab shows.
    public let title: String
    /// A tab `name` showing `title`.
    public init(_ name: TabKey, title: String) {
        self.name = name
        self.title = title
    }
}

/// One layer of the presentation: a stack of screens, or tabs that each hold a stack.
public struct Layer: Sendable, Hashable, Codable {
    /// Its id, unique in the session.
    public let id: LayerID
    /// How it is shown: root, modal or alert.
    public let presentation: Presentation
    /// The coordinator that presented it; the layer goes when that coordinator does.
    public let owner: CoordinatorID
    /// The layer's stack, bottom to top (empty for a tab container).
    public var screens: [Screen]
    /// Its tabs, for a tab container; nil for a plain stack.
    public var tabs: [Tab]?
    /// The selected tab's name, for a tab container.
    public var selectedTab: String?

    var isTabs: Bool { tabs != nil }

    /// The stack that is shown: the selected tab's, or the layer's own. Found by index: a closure
    /// over the tabs was handed a copy of each (its strings and stack retained).
    var visibleScreens: [Screen] {
        guard let tabs else { return screens }
        for index in tabs.indices where tabs[index].name == selectedTab { return tabs[index].screens }
        return []
    }

    /// The top of the stack that is shown, without copying the stack out (`top` is read about ten
    /// times an event).
    var topVisibleScreen: Screen? {
        guard let tabs else { return screens.last }
        for tab in tabs where tab.name == selectedTab { return tab.screens.last }
        return nil
    }

    /// The id and name of the shown stack's top screen, read in place: `topVisibleScreen` copies
    /// the whole screen (its props and strings retained) for readers that mostly want these.
    var topVisibleIdentity: (id: ScreenID, name: String)? {
        guard let tabs else {
            guard !screens.isEmpty else { return nil }
            return (screens[screens.count - 1].id, screens[screens.count - 1].name)
        }
        for index in tabs.indices where tabs[index].name == selectedTab {
            let count = tabs[index].screens.count
            guard count > 0 else { return nil }
            return (tabs[index].screens[count - 1].id, tabs[index].screens[count - 1].name)
        }
        return nil
    }

    /// True when the stack that is shown has a screen: `topVisibleScreen != nil` without a copy
    /// of that screen (each `top` looks at every layer's).
    var showsScreen: Bool { !visibleScreens.isEmpty }

    /// Every screen of the layer, all tabs included.
    var allScreens: [Screen] {
        guard let tabs else { return screens }
        return tabs.flatMap(\.screens)
    }

    /// How many screens `allScreens` holds, counted in place.
    var screenCount: Int {
        guard let tabs else { return screens.count }
        return tabs.reduce(0) { $0 + $1.screens.count }
    }

    /// A close guess at the bytes its screens take as JSON: their props and ~128 bytes each for
    /// the rest (id, name, owner, events), all tabs included, without gathering the screens.
    var estimatedJSONBytes: Int {
        let screen = { (total: Int, screen: Screen) in total + screen.propsJSON.count + 128 }
        guard let tabs else { return screens.reduce(128, screen) }
        return tabs.reduce(128) { total, tab in tab.screens.reduce(total + 128, screen) }
    }

    /// Calls `body` with each stack of the layer: the layer's own, or each tab's.
    mutating func forEachStack(_ body: (_ tab: String?, _ screens: inout [Screen]) -> Void) {
        if tabs == nil {
            body(nil, &screens)
        } else {
            for index in tabs!.indices { body(tabs![index].name, &tabs![index].screens) }
        }
    }
}

/// Where a stack is: a layer, and a tab of it for tab layers.
struct StackRef: Sendable, Hashable, Codable {
    let layer: LayerID
    let tab: String?
}

// The snapshot's JSON of each part, with the keys their `Codable` conformances use, written
// by hand with each screen's serialized props spliced in.

extension Screen {
    func writeSnapshot(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        output.append(contentsOf: identityJSON)
        output.appendLiteral(#","owner":"#)
        output.appendDecimal(owner)
        output.appendLiteral(#","props":"#)
        output.append(contentsOf: propsJSON)
        output.append(UInt8(ascii: "}"))
    }
}

extension Array where Element == Screen {
    func writeSnapshot(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for (index, screen) in enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            screen.writeSnapshot(to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }
}

extension Layer {
    func writeSnapshot(to output: inout [UInt8]) {
        output.appendLiteral(#"{"id":"#)
        output.appendDecimal(id)
        output.appendLiteral(#","owner":"#)
        output.appendDecimal(owner)
        output.appendLiteral(#","presentation":"#)
        JSONValue.writeString(presentation.rawValue, to: &output)
        output.appendLiteral(#","screens":"#)
        screens.writeSnapshot(to: &output)
        if let selectedTab {
            output.appendLiteral(#","selectedTab":"#)
            JSONValue.writeString(selectedTab, to: &output)
        }
        if let tabs {
            output.appendLiteral(#","tabs":"#)
            tabs.write(to: &output) { screens, output in screens.writeSnapshot(to: &output) }
        }
        output.append(UInt8(ascii: "}"))
    }
}

extension Array where Element == Tab {
    /// `[{"name":…,"screens":…,"title":…},…]`, each tab's screens written by `writeScreens`
    /// (the snapshot and the State write screens differently).
    func write(to output: inout [UInt8], screens writeScreens: ([Screen], inout [UInt8]) -> Void) {
        output.append(UInt8(ascii: "["))
        for (index, tab) in enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.appendLiteral(#"{"name":"#)
            JSONValue.writeString(tab.name, to: &output)
            output.appendLiteral(#","screens":"#)
            writeScreens(tab.screens, &output)
            output.appendLiteral(#","title":"#)
            JSONValue.writeString(tab.title, to: &output)
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
    }
}

extension StackRef {
    /// `{"layer":…,"tab":…}` (no `tab` when nil), the keys in order, as `Codable` decodes it.
    func writeSnapshot(to output: inout [UInt8]) {
        output.appendLiteral(#"{"layer":"#)
        output.appendDecimal(layer)
        if let tab {
            output.appendLiteral(#","tab":"#)
            JSONValue.writeString(tab, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}
