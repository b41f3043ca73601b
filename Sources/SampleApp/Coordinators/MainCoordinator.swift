import Navigation

/// The signed-in app: a tab layer with `home` and `profile`, each tab its own child flow.
/// Finishes with what the profile flow finished with (`signedOut`, `accountDeleted`).
struct MainCoordinator: Coordinator {
    static let typeName = "Main"
    typealias Output = ProfileCoordinator.Output

    mutating func start(_ context: inout Context) throws {
        context.setRootTabs([TabSpec(.home, title: "Home"), TabSpec(.profile, title: "Profile")], selected: .home)
        try context.startChild(.home, HomeCoordinator(), placement: .tab(.home))
        try context.startChild(.profile, ProfileCoordinator(), placement: .tab(.profile))
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }

    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        if let ended = output.as(ProfileCoordinator.self) { finish(ended, &context) }
    }
}
