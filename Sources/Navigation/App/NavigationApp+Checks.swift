// How an app team's mistakes surface. A mistake in the app's declarations (two screens or two
// coordinator types under one name, a presentation hint naming nothing) is found when the
// `NavigationApp` is built, but is not a crash there: the app is a `static let` that tests,
// tools and the server all touch, and a trap would take a whole test run down with one line
// and no test could show it. Instead the mistakes are kept in `problems`, and
//   - `CoordinatorServer` calls `validate()` at start-up and refuses to start, naming each one;
//   - every session's `start` throws them, so the first flow test of the app fails with them;
//   - a test may call `validate()` itself (it also checks the root coordinator of each platform).
// A screen or coordinator type the app does not list is found where it is used: pushing,
// presenting or starting it fails that flow at once, with what to add where.

extension NavigationApp {
    /// Checks the app as the server does before it serves: throws every mistake in its
    /// declarations, and a root coordinator (of any platform) that is not among its coordinators.
    public func validate() throws(AppDefinitionError) {
        var problems = self.problems
        for platform in Platform.allCases {
            if let problem = registry.problem(with: type(of: makeRoot(platform)), as: "the root coordinator"),
                !problems.contains(problem)
            {
                problems.append(problem)
            }
        }
        if !problems.isEmpty { throw AppDefinitionError(problems: problems) }
    }

    /// The mistakes in `screens` and `coordinators`, in the order they were listed.
    static func problems(screens: [ScreenDefinition], coordinators: [any Coordinator.Type]) -> [String] {
        var problems: [String] = []
        var screensByName: [String: ScreenDefinition] = [:]
        // `open` too, in an app without links: the day it adds links, every screen has `open`.
        let systemEvents = Set((SystemEvent.all + [SystemEvent.open]).map(\.name))
        for screen in screens {
            if let first = screensByName[screen.name] {
                if first.type == nil || first.type != screen.type {
                    problems.append(
                        "\(first.typeDescription) and \(screen.typeDescription) are both named \"\(screen.name)\"; "
                            + "a screen's name is unique within an app")
                }
                continue
            }
            screensByName[screen.name] = screen
            for event in screen.events where systemEvents.contains(event.name) {
                problems.append(
                    "screen \"\(screen.name)\" declares \"\(event.name)\", a system event every screen has already"
                        + (event.name == SystemEvent.open.name ? " (or will, once the app declares links)" : ""))
            }
            problems += screen.presentationProblems()
        }
        var coordinatorsByName: [String: any Coordinator.Type] = [:]
        for coordinator in coordinators {
            if let first = coordinatorsByName[coordinator.typeName] {
                if first != coordinator {
                    problems.append(
                        "coordinators \(first) and \(coordinator) share the typeName \"\(coordinator.typeName)\"; "
                            + "snapshots name a coordinator's type by it, so it is unique within an app")
                }
                continue
            }
            coordinatorsByName[coordinator.typeName] = coordinator
        }
        return problems
    }

    /// The registered screen `definition` names, or why it cannot be shown.
    static func unregistered(_ definition: ScreenDefinition, in screens: [String: ScreenDefinition]) -> NavigationError? {
        if let registered = screens[definition.name], registered.type == definition.type { return nil }
        return NavigationError(
            "\(definition.typeDescription) (\"\(definition.name)\") is not one of the app's screens: "
                + "list it in NavigationApp(screens:), so that the server accepts its events and the catalog lists it")
    }
}

extension CoordinatorRegistry {
    /// Why `coordinator` cannot run in a session (it is not registered under its `typeName`), or nil.
    func problem(with coordinator: any Coordinator.Type, as role: String) -> String? {
        if let registered = types[coordinator.typeName], registered == coordinator { return nil }
        return "\(role) \(coordinator) (typeName \"\(coordinator.typeName)\") is not one of the app's coordinators: "
            + "list it in NavigationApp(coordinators:), or its sessions cannot be restored after a restart"
    }

    /// Throws when `coordinator` is not registered.
    func check(_ coordinator: any Coordinator.Type, as role: String) throws {
        if let problem = problem(with: coordinator, as: role) { throw NavigationError(problem) }
    }
}
