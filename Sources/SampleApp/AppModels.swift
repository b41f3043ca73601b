import Navigation
import SQLiteStore
import Secrets

/// What the app's coordinators reach through their environment for one event.
struct AppModels {
    let users: UserStore
    let posts: PostStore
    let passwords: PreparedPasswords
    let throttle: LoginThrottle
    let clientAddress: String
    let now: Int64
    /// Verified against when the e-mail is unknown, so both failures take the same time.
    let dummyHash: String
}

extension Context {
    var models: AppModels {
        get throws { try environment.require(AppModels.self) }
    }
}

/// The app's long-lived services, and the per-event environment built from them.
public final class SampleAppServices: Sendable {
    public let throttle: LoginThrottle
    let dummyHash: String

    /// Hashes one dummy password with `hasher` (tens of milliseconds, once).
    public init(hasher: PasswordHasher, throttle: LoginThrottle = LoginThrottle()) throws {
        self.throttle = throttle
        self.dummyHash = try hasher.hash(Tokens.random())
    }

    /// The environment for one event, bound to `connection`.
    public func environment(
        connection: Connection, passwords: PreparedPasswords, clientAddress: String, now: Int64
    ) -> Environment {
        var environment = Environment()
        environment.set(
            AppModels(
                users: UserStore(connection: connection), posts: PostStore(connection: connection), passwords: passwords,
                throttle: throttle, clientAddress: clientAddress, now: now, dummyHash: dummyHash))
        return environment
    }
}
