/// One screen on a stack: what it is, what it shows, and which coordinator owns it.
public struct Screen: Sendable, Hashable, Codable {
    public let id: ScreenID
    public let name: String
    public var props: [String: JSONValue]
    /// The coordinator that showed it and receives its events.
    public let owner: CoordinatorID
}

/// How a layer is shown: the root, a modal sheet over what is below, or an alert.
public enum Presentation: String, Sendable, Codable {
    case root, modal, alert
}

/// One tab of a tab container: its name, its title, and its own stack.
public struct Tab: Sendable, Hashable, Codable {
    public let name: String
    public let title: String
    public var screens: [Screen]
}

/// A tab to create: its name and title.
public struct TabSpec: Sendable, Hashable {
    public let name: String
    public let title: String
    public init(_ name: String, title: String) {
        self.name = name
        self.title = title
    }
}

/// One layer of the presentation: a stack of screens, or tabs that each hold a stack.
public struct Layer: Sendable, Hashable, Codable {
    public let id: LayerID
    public let presentation: Presentation
    /// The coordinator that presented it; the layer goes when that coordinator does.
    public let owner: CoordinatorID
    public var screens: [Screen]
    public var tabs: [Tab]?
    public var selectedTab: String?

    var isTabs: Bool { tabs != nil }

    /// The stack that is shown: the selected tab's, or the layer's own.
    var visibleScreens: [Screen] {
        guard let tabs else { return screens }
        return tabs.first { $0.name == selectedTab }?.screens ?? []
    }

    /// Every screen of the layer, all tabs included.
    var allScreens: [Screen] {
        guard let tabs else { return screens }
        return tabs.flatMap(\.screens)
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

// The snapshot's JSON of each part, with the keys their synthesized `Codable` uses.

extension Screen {
    var json: JSONValue {
        ["id": .string(id.rawValue), "name": .string(name), "props": .object(props), "owner": .int(owner)]
    }
}

extension Layer {
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "id": .int(id), "presentation": .string(presentation.rawValue), "owner": .int(owner),
            "screens": .array(screens.map(\.json)),
        ]
        if let tabs {
            members["tabs"] = .array(
                tabs.map { ["name": .string($0.name), "title": .string($0.title), "screens": .array($0.screens.map(\.json))] })
        }
        if let selectedTab { members["selectedTab"] = .string(selectedTab) }
        return .object(members)
    }
}

extension StackRef {
    var json: JSONValue {
        var members: [String: JSONValue] = ["layer": .int(layer)]
        if let tab { members["tab"] = .string(tab) }
        return .object(members)
    }
}
