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
        output.reserveCapacity(4096)
        func write(_ screens: [Screen], to output: inout [UInt8]) {
            output.append(UInt8(ascii: "["))
            for (index, screen) in screens.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.append(contentsOf: #"{"events":"#.utf8)
                output.append(contentsOf: screen.id == top ? accepted : Array("[]".utf8))
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

    /// Every screen with its props and its events with their payload fields, and the system events.
    public func catalog() -> JSONValue {
        func fields(_ fields: [FieldDeclaration]) -> JSONValue {
            .array(fields.map { ["name": .string($0.name), "type": .string($0.type.rawValue), "optional": .bool($0.optional)] })
        }
        func events(_ events: [EventDeclaration]) -> JSONValue {
            .array(events.map { ["name": .string($0.name), "fields": fields($0.fields)] })
        }
        let screens = self.screens.values.sorted { $0.name < $1.name }.map { screen -> JSONValue in
            [
                "name": .string(screen.name), "summary": .string(screen.summary), "props": fields(screen.props),
                "events": events(screen.events), "presentation": screen.presentation.json,
            ]
        }
        guard !links.isEmpty else { return ["screens": .array(screens), "systemEvents": events(SystemEvent.all)] }
        return [
            "screens": .array(screens), "systemEvents": events(SystemEvent.all + [SystemEvent.open]), "links": links.catalog,
        ]
    }
}
