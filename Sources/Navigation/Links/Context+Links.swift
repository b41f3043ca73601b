/// Links as coordinators handle them: delegating to a child, continuing one kept across sign-in.
extension Context {
    /// Runs the `open` of the child under `key`; `.unhandled` when no such child runs.
    public mutating func open(_ link: Link, inChild key: ChildKey) throws -> Handling {
        guard let child = tree.nodes[coordinatorID]?.children[key.rawValue] else { return .unhandled }
        return try run(child) { coordinator, context in try coordinator.open(link, &context) }
    }

    /// Opens `link` in the child under `key` if it can: a link a flow kept (across sign-in, say)
    /// and can no longer open is dropped, leaving everything as it was, instead of failing the
    /// event that continues it; the event's answer says so (`linkDropped`, with why), so the
    /// client can tell its user. True when it was opened.
    @discardableResult
    public mutating func openIfPossible(_ link: Link, inChild key: ChildKey) -> Bool {
        let saved = self
        let reason: String
        do {
            if case .handled = try open(link, inChild: key) { return true }
            reason = LinkRejection.unhandled(link: link.path).detail
        } catch let rejection as LinkRejection {
            reason = rejection.detail
        } catch {
            reason = "It could not be opened."
        }
        self = saved
        droppedLink = DroppedLink(link: link.path, reason: reason)
        return false
    }
}

extension Context {
    /// Removes every layer over the root layer but those the child under `key` or its
    /// descendants own, as a user closing them would (`dismiss`): their owners are told
    /// (`screenRemoved`), top first, except this coordinator and its ancestors, which are running
    /// now (they asked). Where a link that leads elsewhere starts from.
    public mutating func dismissLayers(keeping key: ChildKey? = nil) throws {
        let kept = key.flatMap { tree.nodes[coordinatorID]?.children[$0.rawValue] }
        var running: Set<CoordinatorID> = []
        var current: CoordinatorID? = coordinatorID
        while let id = current {
            running.insert(id)
            current = tree.nodes[id]?.parent
        }
        var removed: [Screen] = []
        var index = tree.layers.count - 1
        while index > 0 {
            let layer = tree.layers[index]
            if kept.map({ tree.isDescendant(layer.owner, of: $0) }) != true {
                removed += layer.allScreens.reversed()
                tree.layers.remove(at: index)
            }
            index -= 1
        }
        // The coordinators running now keep their own copy, which would overwrite what they were told.
        for screen in removed where !running.contains(screen.owner) && tree.nodes[screen.owner] != nil {
            try run(screen.owner) { coordinator, context in coordinator.screenRemoved(screen, &context) }
        }
    }
}

extension NavigationTree {
    /// True when coordinator `id` is `ancestor` or one of its descendants.
    func isDescendant(_ id: CoordinatorID, of ancestor: CoordinatorID) -> Bool {
        var current: CoordinatorID? = id
        while let node = current {
            if node == ancestor { return true }
            current = nodes[node]?.parent
        }
        return false
    }
}
