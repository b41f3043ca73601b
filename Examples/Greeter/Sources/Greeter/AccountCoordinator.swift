import Navigation
import SignInKit

extension ChildKey {
    static let signIn = ChildKey("signIn")
    static let settings = ChildKey("settings")
}

/// The account tab: the sign-in kit's flows. Signed out, sign in or register; signed in, the
/// account's settings. Whatever either finishes with (signed in, signed out, deleted), the tab
/// shows what fits now.
struct AccountCoordinator: Coordinator {
    static let children: [any Coordinator.Type] = [SignInCoordinator<NoLinks>.self, AccountSettingsCoordinator.self]

    mutating func start(_ context: inout Context) throws {
        try show(&context)
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        .unhandled
    }

    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        try show(&context)
    }

    private func show(_ context: inout Context) throws {
        if context.user == nil {
            try context.startChild(.signIn, SignInCoordinator<NoLinks>())
        } else {
            try context.startChild(.settings, AccountSettingsCoordinator())
        }
    }
}
