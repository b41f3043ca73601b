import AccountProtection
import Navigation
import SignInKit
import Store
import Secrets

/// What the app's own coordinators reach through their environment for one event (the sign-in
/// kit's are `context.accounts`).
struct AppModels {
    /// The connection the event commits on.
    let connection: any SQLConnection
    let posts: PostStore
    /// Seconds since 1970, as the event sees them.
    let now: Int64
    /// New users are sent a welcome message (a mail relay is configured: `--welcome-webhook`).
    var sendsWelcomes = false
}

extension Context {
    var models: AppModels {
        get throws { try environment.require(AppModels.self) }
    }
}

/// The sample app's account protections: the sign-in kit's.
public typealias SampleAppGuards = AccountGuards

/// The app's long-lived services, and the per-event environment built from them.
public final class SampleAppServices: Sendable {
    public let accounts: AccountServices
    /// New users are sent a welcome message (`SendWelcome`).
    let sendsWelcomes: Bool

    /// Hashes one dummy password with `hasher` (tens of milliseconds, once).
    /// - Parameter sendsWelcomes: whether new users are sent a welcome message (a mail relay is configured).
    public init(hasher: PasswordHasher, guards: AccountGuards = AccountGuards(), sendsWelcomes: Bool = false) throws {
        // A deleted user's posts leave the journals of every session that showed them.
        accounts = try AccountServices(
            hasher: hasher, guards: guards,
            options: SignInOptions(
                deletionWarning: "Delete your account and all your posts? Enter your password to confirm.",
                shownOfUser: { user, connection in try PostStore(connection: connection).posts(by: user).map(\.text) }))
        self.sendsWelcomes = sendsWelcomes
    }

    /// The sign-in kit's throttles.
    public var guards: AccountGuards { accounts.guards }

    /// The environment for one event, bound to `connection`; `deviceToken` is the client's
    /// `Device-Token` header.
    public func environment(
        connection: any SQLConnection, passwords: PreparedPasswords, clientAddress: String, now: Int64,
        deviceToken: String? = nil
    ) -> Environment {
        var environment = Environment()
        accounts.add(
            to: &environment, connection: connection, passwords: passwords, clientAddress: clientAddress, now: now,
            deviceToken: deviceToken)
        environment.set(
            AppModels(connection: connection, posts: PostStore(connection: connection), now: now, sendsWelcomes: sendsWelcomes))
        return environment
    }
}
