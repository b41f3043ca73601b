import Navigation

extension TabKey {
    static let greet = TabKey("greet")
    static let history = TabKey("history")
    static let account = TabKey("account")
}

extension ChildKey {
    static let greet = ChildKey("greet")
    static let history = ChildKey("history")
    static let card = ChildKey("card")
    static let account = ChildKey("account")
}

/// The root: three tabs, each run by a child coordinator of its own.
struct AppCoordinator: Coordinator {
    static let children: [any Coordinator.Type] = [GreeterCoordinator.self, HistoryCoordinator.self, AccountCoordinator.self]

    mutating func start(_ context: inout Context) throws {
        context.setRootTabs(
            [TabSpec(.greet, title: "Greet"), TabSpec(.history, title: "History"), TabSpec(.account, title: "Account")],
            selected: .greet)
        try context.startChild(.greet, GreeterCoordinator(), placement: .tab(.greet))
        try context.startChild(.history, HistoryCoordinator(), placement: .tab(.history))
        try context.startChild(.account, AccountCoordinator(), placement: .tab(.account))
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        .unhandled
    }
}
