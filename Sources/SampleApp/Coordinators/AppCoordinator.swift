import Navigation
import SignInKit

/// Khanlou's app coordinator: signed in → the main tabs; otherwise → the auth flow.
/// Signing out or deleting the account brings the auth flow back. A link goes to the main flow,
/// or through sign-in first (the auth flow keeps it and hands it back once signed in).
/// A user who just registered is sent a welcome message (an effect, after the commit), when a
/// mail relay is configured.
struct AppCoordinator: Coordinator {
    static let typeName = "App"

    /// How the last welcome message this session asked for went (`nil`: none asked, or not back yet).
    var welcome: WelcomeSent?

    mutating func start(_ context: inout Context) throws {
        try showFlow(&context)
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }

    mutating func open(_ link: Link, _ context: inout Context) throws -> Handling {
        guard let route = link.route(as: AppRoute.self) else { return .unhandled }
        if context.user == nil { return try context.open(link, inChild: .auth) }
        if route == .signUp {
            throw LinkRejection.forbidden("You are signed in: sign out to create another account.")
        }
        return try context.open(link, inChild: .main)
    }

    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        try showFlow(&context)
        // Kratos' return_to: the link that sent the user to sign in, continued now; one that can
        // no longer be opened (the post was deleted meanwhile) is dropped.
        guard case .signedIn(let link, let registered)? = output.as(SignInCoordinator<AppRoute>.self), context.user != nil
        else { return }
        if let registered, try context.models.sendsWelcomes {
            try context.perform(SendWelcome(userId: registered.id, email: registered.email, displayName: registered.displayName))
        }
        if let link { context.openIfPossible(Link(link), inChild: .main) }
    }

    mutating func effectFinished(_ result: EffectResult, _ context: inout Context) throws -> Handling {
        guard let (_, outcome) = try result.as(SendWelcome.self) else { return .unhandled }
        switch outcome {
        case .success(let sent): welcome = sent
        case .failure(let failure): welcome = WelcomeSent(delivery: "failed: \(failure.reason)")
        }
        return .handled
    }

    private func showFlow(_ context: inout Context) throws {
        if context.user == nil {
            try context.startChild(.auth, SignInCoordinator<AppRoute>())
        } else {
            try context.startChild(.main, MainCoordinator())
        }
    }
}
