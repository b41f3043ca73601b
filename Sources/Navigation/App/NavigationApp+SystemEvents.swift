extension NavigationApp {
    /// `back`: pops the top screen and tells its owner.
    func back(_ context: inout Context) throws {
        guard let index = context.tree.topLayerIndex else { return }
        let layer = context.tree.layers[index]
        let stack = StackRef(layer: layer.id, tab: layer.isTabs ? layer.selectedTab : nil)
        let removed = try context.tree.withStack(stack) { $0.removeLast() }
        try notifyRemoved([removed], &context)
    }

    /// `dismiss`: removes the top layer and tells the owners of its screens, top first.
    func dismiss(_ context: inout Context) throws {
        guard let index = context.tree.topLayerIndex else { return }
        let layer = context.tree.layers[index]
        context.tree.layers.removeSubrange(index...)
        try notifyRemoved(layer.allScreens.reversed(), &context)
    }

    /// `selectTab {tab}`: selects the tab and tells the tab layer's owner.
    func selectTab(_ name: String, _ context: inout Context) throws {
        guard let index = context.tree.topLayerIndex, let tabs = context.tree.layers[index].tabs else { return }
        guard tabs.contains(where: { $0.name == name }) else {
            throw EventRejection.invalidPayload([
                FieldError(field: "tab", message: "must be one of: \(tabs.map(\.name).joined(separator: ", "))")
            ])
        }
        context.tree.layers[index].selectedTab = name
        let owner = context.tree.layers[index].owner
        if context.tree.nodes[owner] != nil {
            try context.run(owner) { coordinator, context in coordinator.tabSelected(TabKey(name), &context) }
        }
    }

    /// Runs each owner's `screenRemoved`; an owner that then fails to encode fails the event.
    private func notifyRemoved(_ screens: [Screen], _ context: inout Context) throws {
        for screen in screens where context.tree.nodes[screen.owner] != nil {
            try context.run(screen.owner) { coordinator, context in coordinator.screenRemoved(screen, &context) }
        }
    }
}
