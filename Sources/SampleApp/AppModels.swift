import Navigation
import Store
import Secrets

/// What the app's coordinators reach through their environment for one event.
struct AppModels {
    /// The connection the event commits on (the throttles write their counts there).
    let connection: any SQLConnection
    let users: UserStore
    let posts: PostStore
    let passwords: PreparedPasswords
    let guards: SampleAppGuards
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

/// The app's throttles: failed sign-ins, failed password re-checks, and registration attempts.
public struct SampleAppGuards: Sendable {
    public let signIns: FailureThrottle
    public let passwordChecks: FailureThrottle
    public let registrations: RateLimiter

    /// - Parameter registrationsPerMinute: e-mails one client may try to register per minute
    ///   (twice that at once): every answer, "already registered" included, counts.
    public init(registrationsPerMinute: Int = 10) {
        let perMinute = Int64(max(1, registrationsPerMinute))
        self.init(
            signIns: FailureThrottle(subject: "sign-ins"), passwordChecks: FailureThrottle(subject: "password checks"),
            registrations: RateLimiter(
                subject: "registration attempts", capacity: 2 * perMinute, refillSeconds: max(1, 60 / perMinute)))
    }

    public init(signIns: FailureThrottle, passwordChecks: FailureThrottle, registrations: RateLimiter) {
        self.signIns = signIns
        self.passwordChecks = passwordChecks
        self.registrations = registrations
    }
}

/// The app's long-lived services, and the per-event environment built from them.
public final class SampleAppServices: Sendable {
    public let guards: SampleAppGuards
    let dummyHash: String

    /// Hashes one dummy password with `hasher` (tens of milliseconds, once).
    public init(hasher: PasswordHasher, guards: SampleAppGuards = SampleAppGuards()) throws {
        self.guards = guards
        self.dummyHash = try hasher.hash(Tokens.random())
    }

    /// The environment for one event, bound to `connection`.
    public func environment(
        connection: any SQLConnection, passwords: PreparedPasswords, clientAddress: String, now: Int64
    ) -> Environment {
        var environment = Environment()
        environment.set(
            AppModels(
                connection: connection, users: UserStore(connection: connection), posts: PostStore(connection: connection), passwords: passwords,
                guards: guards, clientAddress: clientAddress, now: now, dummyHash: dummyHash))
        return environment
    }
}
