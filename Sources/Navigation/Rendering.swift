extension NavigationApp {
    /// The State of DESIGN §4 without the session's id and version: `user`, `stack` (the layers)
    /// and `top`. Only the top screen lists events: it is the one screen that accepts them now.
    /// The same bytes as `renderState`, parsed, so the value and the answer cannot disagree.
    public func render(_ tree: NavigationTree) -> [String: JSONValue] {
        // `renderState` writes JSON by construction; failing to parse it is a programming error.
        guard let state = (try? JSONValue.parse(renderState(tree, extra: [:])))?.objectValue else {
            preconditionFailure("renderState wrote invalid JSON")
        }
        return state
    }

    /// The State with `extra` members (`id`, `version`, `token`), serialized directly with each
    /// screen's cached props: the bytes every answer carries.
    public func renderState(_ tree: NavigationTree, extra: [String: JSONValue]) -> [UInt8] {
        let top = tree.top?.id
        let accepted = JSONValue.array(acceptedEvents(in: tree).map(JSONValue.string)).serialized()
        var output: [UInt8] = []
        output.reserveCapacity(tree.estimatedJSONBytes)
        func write(_ screens: [Screen], to output: inout [UInt8]) {
            output.append(UInt8(ascii: "["))
            for (index, screen) in screens.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.append(contentsOf: #"{"events":"#.utf8)
                if screen.id == top {
                    output.append(contentsOf: accepted)
                } else {
                    output.append(UInt8(ascii: "["))
                    output.append(UInt8(ascii: "]"))
                }
                output.append(contentsOf: #","id":"#.utf8)
                JSONValue.string(screen.id.rawValue).write(to: &output)
                output.append(contentsOf: #","name":"#.utf8)
                JSONValue.string(screen.name).write(to: &output)
                output.append(contentsOf: #","props":"#.utf8)
                output.append(contentsOf: screen.propsJSON)
                output.append(UInt8(ascii: "}"))
            }
            output.append(UInt8(ascii: "]"))
        }
        var members = extra
        members["top"] = .optional(top?.rawValue)
        // The top screen's canonical link, only when it has one: States without it are unchanged.
        if let link = link(of: tree) { members["link"] = .string(link) }
        members["user"] = tree.user?.json ?? .null
        members["stack"] = .null  // a placeholder, written below in key order
        output.append(UInt8(ascii: "{"))
        for (index, (key, value)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.string(key).write(to: &output)
            output.append(UInt8(ascii: ":"))
            guard key == "stack" else {
                value.write(to: &output)
                continue
            }
            output.append(UInt8(ascii: "["))
            for (layerIndex, layer) in tree.layers.enumerated() {
                if layerIndex > 0 { output.append(UInt8(ascii: ",")) }
                output.append(contentsOf: #"{"presentation":"#.utf8)
                JSONValue.string(layer.presentation.rawValue).write(to: &output)
                if let tabs = layer.tabs {
                    output.append(contentsOf: #","selectedTab":"#.utf8)
                    JSONValue.optional(layer.selectedTab).write(to: &output)
                    output.append(contentsOf: #","tabs":"#.utf8)
                    tabs.write(to: &output) { screens, output in write(screens, to: &output) }
                } else {
                    output.append(contentsOf: #","screens":"#.utf8)
                    write(layer.screens, to: &output)
                }
                output.append(UInt8(ascii: "}"))
            }
            output.append(UInt8(ascii: "]"))
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// The coordinator tree for inspection: each coordinator's type, key, screens and children.
    public func inspect(_ tree: NavigationTree) -> JSONValue {
        func describe(_ id: CoordinatorID) -> JSONValue {
            guard let node = tree.nodes[id] else { return .null }
            let screens = tree.allScreens.filter { $0.owner == id }
            return [
                "id": .int(id), "key": .string(node.key), "type": .string(node.typeName),
                "schemaVersion": .int(type(of: node.coordinator).schemaVersion),
                "screens": .array(screens.map { ["id": .string($0.id.rawValue), "name": .string($0.name)] }),
                "children": .array(node.children.values.sorted().map(describe)),
            ]
        }
        return ["platform": .string(tree.platform.rawValue), "root": describe(tree.rootID)]
    }

    /// Every screen with its props and its events with their payload fields (object members and
    /// list items included, each with the label assistive technology says), the system events,
    /// the app's display name, and `version`: a hash of the rest, which changes when a deploy
    /// changes anything a client reads here.
    public func catalog() -> JSONValue {
        func field(_ declaration: FieldDeclaration, of screen: ScreenDefinition?) -> JSONValue {
            var entry: [String: JSONValue] = ["type": .string(declaration.type.rawValue)]
            // A list's items have no name: they are described by type and members only.
            if !declaration.name.isEmpty {
                entry["name"] = .string(declaration.name)
                entry["optional"] = .bool(declaration.optional)
                entry["accessibilityLabel"] = .string(
                    screen?.accessibilityLabel(ofField: declaration.name) ?? ScreenDefinition.derivedLabel(declaration.name))
            }
            if let members = declaration.members { entry["fields"] = .array(members.map { field($0, of: screen) }) }
            if let items = declaration.items { entry["items"] = field(items, of: screen) }
            return .object(entry)
        }
        func events(_ events: [EventDeclaration], of screen: ScreenDefinition?) -> JSONValue {
            .array(
                events.map { event in
                    [
                        "name": .string(event.name), "fields": .array(event.fields.map { field($0, of: screen) }),
                        "accessibilityLabel": .string(
                            screen?.accessibilityLabel(ofEvent: event.name) ?? ScreenDefinition.derivedLabel(event.name)),
                    ]
                })
        }
        let screens = self.screens.values.sorted { $0.name < $1.name }.map { screen -> JSONValue in
            [
                "name": .string(screen.name), "summary": .string(screen.summary),
                "props": .array(screen.props.map { field($0, of: screen) }), "events": events(screen.events, of: screen),
                "presentation": screen.presentation.json,
            ]
        }
        let system = links.isEmpty ? SystemEvent.all : SystemEvent.all + [SystemEvent.open]
        var members: [String: JSONValue] = ["screens": .array(screens), "systemEvents": events(system, of: nil)]
        if !links.isEmpty { members["links"] = links.catalog }
        if let displayName { members["app"] = ["name": .string(displayName)] }
        members["version"] = .string(Self.version(of: JSONValue.object(members).serialized()))
        return .object(members)
    }
}
