import AccountProtection
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
    /// The `Device-Token` the client sent, unverified (`DeviceCredentials` checks it).
    let deviceToken: String?
    let now: Int64
    /// Verified against when the e-mail is unknown, so both failures take the same time.
    let dummyHash: String
    /// New users are sent a welcome message (a mail relay is configured: `--welcome-webhook`).
    var sendsWelcomes = false
    /// Where writes go that must commit even if the event is refused (a failed password check):
    /// the session service's `LastingWrites` for this run; without one (a flow driven by hand),
    /// writes on `connection` that commit or roll back with the event.
    var lasting: LastingWrites
}

extension Context {
    var models: AppModels {
        get throws {
            var models = try environment.require(AppModels.self)
            if let lasting = environment[LastingWrites.self] { models.lasting = lasting }
            return models
        }
    }
}

/// The app's throttles: failed sign-ins, failed password re-checks, and registration attempts;
/// and the device credentials that let the owner's devices past an account's lockout.
public struct SampleAppGuards: Sendable {
    public let signIns: FailureThrottle
    public let passwordChecks: FailureThrottle
    public let registrations: RateLimiter
    public let devices: DeviceCredentials

    /// - Parameter registrationsPerMinute: registration tries one client may make per minute
    ///   (twice that at once): each e-mail step, password step and tablet form, whatever the
    ///   answer ("already registered" included).
    public init(registrationsPerMinute: Int = 10) {
        let perMinute = Int64(max(1, registrationsPerMinute))
        self.init(
            signIns: FailureThrottle(subject: "sign-ins"), passwordChecks: FailureThrottle(subject: "password checks"),
            registrations: RateLimiter(
                subject: "registration attempts", capacity: 2 * perMinute, refillSeconds: max(1, 60 / perMinute)))
    }

    public init(
        signIns: FailureThrottle, passwordChecks: FailureThrottle, registrations: RateLimiter,
        devices: DeviceCredentials = DeviceCredentials()
    ) {
        self.signIns = signIns
        self.passwordChecks = passwordChecks
        self.registrations = registrations
        self.devices = devices
    }
}

/// The app's long-lived services, and the per-event environment built from them.
public final class SampleAppServices: Sendable {
    public let guards: SampleAppGuards
    let dummyHash: String
    /// New users are sent a welcome message (`SendWelcome`).
    let sendsWelcomes: Bool

    /// Hashes one dummy password with `hasher` (tens of milliseconds, once).
    /// - Parameter sendsWelcomes: whether new users are sent a welcome message (a mail relay is configured).
    public init(hasher: PasswordHasher, guards: SampleAppGuards = SampleAppGuards(), sendsWelcomes: Bool = false) throws {
        self.guards = guards
        self.sendsWelcomes = sendsWelcomes
        self.dummyHash = try hasher.hash(Tokens.random())
    }

    /// The environment for one event, bound to `connection`; `deviceToken` is the client's
    /// `Device-Token` header.
    public func environment(
        connection: any SQLConnection, passwords: PreparedPasswords, clientAddress: String, now: Int64,
        deviceToken: String? = nil
    ) -> Environment {
        var environment = Environment()
        environment.set(
            AppModels(
                connection: connection, users: UserStore(connection: connection), posts: PostStore(connection: connection), passwords: passwords,
                guards: guards, clientAddress: clientAddress, deviceToken: deviceToken, now: now, dummyHash: dummyHash,
                sendsWelcomes: sendsWelcomes, lasting: LastingWrites(connection: connection)))
        return environment
    }
}
