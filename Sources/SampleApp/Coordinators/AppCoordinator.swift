import Navigation

/// Khanlou's app coordinator: signed in → the main tabs; otherwise → the auth flow.
/// Signing out or deleting the account brings the auth flow back.
struct AppCoordinator: Coordinator {
    static let typeName = "App"

    mutating func start(_ context: inout Context) throws {
        try showFlow(&context)
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }

    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        try showFlow(&context)
    }

    private func showFlow(_ context: inout Context) throws {
        if context.user == nil {
            try context.startChild(.auth, AuthCoordinator())
        } else {
            try context.startChild(.main, MainCoordinator())
        }
    }
}
