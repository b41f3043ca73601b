extension NavigationApp {
    /// The State (api/openapi.yaml's `State`) without the session's id and version: `user`, `stack` (the layers)
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
    /// screen's cached props: the bytes every answer carries. Members are written in key order
    /// (canonical JSON) by merging the State's own keys, in order already, with `extra`'s, sorted;
    /// where both name a key, the State's own wins.
    public func renderState(_ tree: NavigationTree, extra: [String: JSONValue]) -> [UInt8] {
        renderState(tree, sortedExtra: extra.count < 2 ? Array(extra) : extra.sorted { $0.key < $1.key })
    }

    /// `renderState(_:extra:)` with the members already in key order (the session service's
    /// answer to every event: a dictionary of them cost an allocation, a hash per key and a sort).
    package func renderState(_ tree: NavigationTree, sortedExtra extra: [(key: String, value: JSONValue)]) -> [UInt8] {
        let top = tree.topIdentity?.id
        var output: [UInt8] = []
        output.reserveCapacity(tree.estimatedJSONBytes)
        let link = link(of: tree)
        var nextExtra = 0
        var first = true
        output.append(UInt8(ascii: "{"))
        /// Writes `extra`'s members that sort before `key` (all that remain when nil), and skips
        /// one named `key`: the State's own member of that name is written instead.
        func writeExtra(before key: String?, to output: inout [UInt8]) {
            while nextExtra < extra.count {
                let member = extra[nextExtra]
                if let key, member.key >= key {
                    if member.key == key { nextExtra += 1 }
                    return
                }
                nextExtra += 1
                Self.writeMember(member.key, to: &output, first: &first)
                member.value.write(to: &output)
            }
        }
        writeExtra(before: "link", to: &output)
        if let link {
            JSONWriting.writeKey("link", to: &output, first: &first)
            JSONValue.writeString(link, to: &output)
        }
        writeExtra(before: "stack", to: &output)
        JSONWriting.writeKey("stack", to: &output, first: &first)
        writeStack(tree, top: top, to: &output)
        writeExtra(before: "top", to: &output)
        JSONWriting.writeKey("top", to: &output, first: &first)
        if let top { JSONValue.writeString(top.rawValue, to: &output) } else { output.appendLiteral("null") }
        writeExtra(before: "user", to: &output)
        JSONWriting.writeKey("user", to: &output, first: &first)
        SessionUser.write(tree.user, to: &output)
        writeExtra(before: nil, to: &output)
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// `"key":`, after a comma unless `first`, for a key that may need escaping.
    private static func writeMember(_ key: String, to output: inout [UInt8], first: inout Bool) {
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        JSONValue.writeString(key, to: &output)
        output.append(UInt8(ascii: ":"))
    }

    /// The State's `stack`: each layer with its screens; only the top screen (`top`) lists the
    /// events it accepts.
    private func writeStack(_ tree: NavigationTree, top: ScreenID?, to output: inout [UInt8]) {
        var accepted: [UInt8] = []
        // Room for the names of a few events: grown from one byte, it was copied twice an event.
        accepted.reserveCapacity(128)
        accepted.append(UInt8(ascii: "["))
        for (index, name) in acceptedEvents(in: tree).enumerated() {
            if index > 0 { accepted.append(UInt8(ascii: ",")) }
            JSONValue.writeString(name, to: &accepted)
        }
        accepted.append(UInt8(ascii: "]"))
        func write(_ screens: [Screen], to output: inout [UInt8]) {
            output.append(UInt8(ascii: "["))
            for (index, screen) in screens.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.appendLiteral(#"{"events":"#)
                if screen.id == top {
                    output.append(contentsOf: accepted)
                } else {
                    output.append(UInt8(ascii: "["))
                    output.append(UInt8(ascii: "]"))
                }
                output.append(UInt8(ascii: ","))
                output.append(contentsOf: screen.identityJSON)
                output.appendLiteral(#","props":"#)
                output.append(contentsOf: screen.propsJSON)
                output.append(UInt8(ascii: "}"))
            }
            output.append(UInt8(ascii: "]"))
        }
        output.append(UInt8(ascii: "["))
        for (layerIndex, layer) in tree.layers.enumerated() {
            if layerIndex > 0 { output.append(UInt8(ascii: ",")) }
            output.appendLiteral(#"{"presentation":"#)
            JSONValue.writeString(layer.presentation.rawValue, to: &output)
            if let tabs = layer.tabs {
                output.appendLiteral(#","selectedTab":"#)
                JSONValue.optional(layer.selectedTab).write(to: &output)
                output.appendLiteral(#","tabs":"#)
                tabs.write(to: &output) { screens, output in write(screens, to: &output) }
            } else {
                output.appendLiteral(#","screens":"#)
                write(layer.screens, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
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
    /// changes anything a client reads here. Its texts (titles, labels, summaries, the display
    /// name) in `language`, from the app's `Translations`; as written for nil.
    public func catalog(in language: String? = nil) -> JSONValue {
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
        if let language {
            members = Dictionary(uniqueKeysWithValues: members.map { ($0.key, translatedTexts($0.value, in: language, key: $0.key)) })
        }
        members["version"] = .string(Self.version(of: JSONValue.object(members).serialized()))
        return .object(members)
    }

    /// `value` with the texts people read in `language`: every `title`, `label`,
    /// `accessibilityLabel`, `summary` and `name` of the app, but not an item action's `title`
    /// and `subtitle`, which name fields.
    private func translatedTexts(_ value: JSONValue, in language: String, key: String? = nil) -> JSONValue {
        switch value {
        case .string(let text) where ["title", "label", "accessibilityLabel", "summary"].contains(key ?? ""):
            return .string(translations.text(text, in: language))
        case .object(let members):
            var translated: [String: JSONValue] = [:]
            for (name, member) in members {
                if name == "itemActions" {
                    translated[name] = member
                } else if key == "app", name == "name", case .string(let text) = member {
                    translated[name] = .string(translations.text(text, in: language))
                } else {
                    translated[name] = translatedTexts(member, in: language, key: name)
                }
            }
            return .object(translated)
        case .array(let items):
            return .array(items.map { translatedTexts($0, in: language, key: key) })
        default:
            return value
        }
    }
}
