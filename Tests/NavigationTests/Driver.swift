import Navigation

/// Drives the test app like a client: always taps the top screen.
struct Driver {
    let app: NavigationApp
    var tree: NavigationTree

    init(app: NavigationApp = TestScreens.app, platform: Platform = .phone, user: SessionUser? = nil) throws {
        self.app = app
        tree = try app.start(platform: platform, user: user, environment: Environment())
    }

    /// Sends `event` from the top screen.
    @discardableResult
    mutating func send(_ event: String, _ payload: JSONValue = .null) throws -> EventOutcome {
        try app.apply(IncomingEvent(screen: tree.top!.id, name: event, payload: payload), to: &tree, environment: Environment())
    }

    var state: JSONValue { .object(app.render(tree)) }
}

// Builders for expected states, so each test spells out the whole State.

func screen(_ id: String, _ name: String, _ props: [String: JSONValue] = [:], events: [String] = []) -> JSONValue {
    ["id": .string(id), "name": .string(name), "props": .object(props), "events": .array(events.map(JSONValue.string))]
}

func layer(_ presentation: String = "root", _ screens: JSONValue...) -> JSONValue {
    ["presentation": .string(presentation), "screens": .array(screens)]
}

func tabsLayer(selected: String, _ tabs: (name: String, title: String, screens: [JSONValue])...) -> JSONValue {
    [
        "presentation": "root", "selectedTab": .string(selected),
        "tabs": .array(tabs.map { ["name": .string($0.name), "title": .string($0.title), "screens": .array($0.screens)] }),
    ]
}

func state(_ layers: JSONValue..., top: String, user: JSONValue = .null) -> JSONValue {
    ["user": user, "stack": .array(layers), "top": .string(top)]
}

let homeEvents = ["openDetail", "startWizard", "compose", "alert", "showTabs", "nobodyHandles"]
