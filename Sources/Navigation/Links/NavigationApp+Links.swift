extension NavigationApp {
    /// `open {link}`, or a link a session is created with: the root coordinator's `open` turns it
    /// into navigation (delegating to its children); unhandled, it is refused.
    func open(_ link: Link, _ context: inout Context) throws {
        let handling = try context.run(context.tree.rootID) { coordinator, context in try coordinator.open(link, &context) }
        guard case .handled = handling else { throw LinkRejection.unhandled(link: link.path) }
    }

    /// The canonical link of the top screen of `tree`, when the app declares one for it.
    public func link(of tree: NavigationTree) -> String? {
        guard !links.isEmpty, let top = tree.top else { return nil }
        return links.canonicalLink(of: top)
    }

    /// Mistakes in an app's links: bad patterns, a pattern showing a screen the app does not list.
    /// (A screen event named `open` is refused in every app, links or not: `problems(screens:coordinators:)`.)
    static func linkProblems(_ links: Links, screens: [ScreenDefinition]) -> [String] {
        guard !links.isEmpty else { return [] }
        var problems = links.problems
        let names = Set(screens.map(\.name))
        for entry in links.entries {
            if let screen = entry.screen, !names.contains(screen) {
                problems.append("link pattern \"\(entry.template)\" shows screen \"\(screen)\", which the app does not list")
            }
        }
        return problems
    }
}
