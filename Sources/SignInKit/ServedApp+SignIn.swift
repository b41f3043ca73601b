import CoordinatorApp
import Navigation

extension ServedApp {
    /// This app with the sign-in kit's tables and models: `SignInKit.migrations(for:)` applied
    /// before the app's own (its tables may refer to `users`), and an `AccountServices` built at
    /// start (with the server's password hasher) adding `context.accounts` to every event.
    /// The app still lists `SignInKit.screens` and `SignInKit.coordinators(links:)` in its
    /// `NavigationApp`, with `userTable: SignInKit.userTable`.
    public func signingIn(options: SignInOptions = SignInOptions(), guards: AccountGuards = AccountGuards()) -> ServedApp {
        including(
            migrations: { try SignInKit.migrations(for: $0) },
            environment: { startup in
                let services = try AccountServices(hasher: startup.passwordHasher, guards: guards, options: options)
                return { event, environment in
                    services.add(
                        to: &environment, connection: event.connection, passwords: event.passwords,
                        clientAddress: event.request.clientAddress, now: event.request.now, deviceToken: event.request.deviceToken)
                }
            })
    }
}
