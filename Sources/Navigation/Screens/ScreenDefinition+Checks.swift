extension ScreenDefinition {
    /// Where its presentation names what the screen does not have: a field hint for no prop or
    /// payload field, an event hint for no declared event, an item action whose path, event,
    /// payload field or item members do not exist. Any of these would be dropped without a word
    /// by every client (a label lost, a destructive role shown as an ordinary button).
    func presentationProblems() -> [String] {
        var problems: [String] = []
        let screen = type == nil ? "screen \"\(name)\"" : "screen \"\(name)\" (\(typeDescription))"
        let eventNames = events.map(\.name)

        // Field hints apply by name at any depth: a `createdAt` inside the items of `posts` too.
        let shapes = [propsShape] + events.compactMap { payloadShapes[$0.name] }
        if !shapes.contains(where: \.isOpen) {
            let known = shapes.reduce(into: Set<String>()) { $0.formUnion($1.names) }
            for key in presentation.fields.keys.sorted() where !known.contains(key) {
                problems.append(
                    "\(screen): presentation field \"\(key)\" is no prop or payload field; it has \(list(known.sorted()))")
            }
        }
        for key in presentation.events.keys.sorted() where !eventNames.contains(key) {
            problems.append("\(screen): presentation event \"\(key)\" is not one of its events; it has \(list(eventNames))")
        }
        for action in presentation.itemActions {
            let prefix = "\(screen): item action at \"\(action.path)\""
            if let problem = itemActionProblem(action, eventNames: eventNames) { problems.append("\(prefix) \(problem)") }
        }
        return problems + labelProblems(screen: screen)
    }

    /// What is wrong with `action`, or nil.
    private func itemActionProblem(_ action: ItemAction, eventNames: [String]) -> String? {
        var shape = propsShape
        var walked: [String] = []
        for part in action.path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            guard let member = shape.member(part) else {
                let owner = walked.isEmpty ? "the props have" : "\"\(walked.joined(separator: "."))\" has"
                return "names \"\(part)\", but \(owner) no such member"
            }
            walked.append(part)
            shape = member
        }
        // The items: the elements of a list, or the object itself.
        let items: Shape
        switch shape {
        case .array(let element): items = element
        case .scalar: return "leads to a single value, not a list or an object"
        case .object, .unknown: items = shape
        }
        guard eventNames.contains(action.event) else {
            return "opens \"\(action.event)\", which is not one of its events; it has \(list(eventNames))"
        }
        guard payloadShapes[action.event]?.member(action.field) != nil else {
            let fields = event(named: action.event)?.fields.map(\.name) ?? []
            return "puts the key into \"\(action.field)\", which is no field of \"\(action.event)\"; it has \(list(fields))"
        }
        for (role, member) in [("key", action.key), ("title", action.title), ("subtitle", action.subtitle)] {
            guard let member, items.member(member) == nil else { continue }
            return "takes its \(role) from \"\(member)\", which its items do not have"
        }
        return nil
    }

    private func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
