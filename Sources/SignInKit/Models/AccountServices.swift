import Navigation
import Secrets
import Store

/// The kit's long-lived part, built once at start: the throttles, the dummy hash an unknown
/// e-mail is verified against, and the app's options. Each event gets its `AccountModels` from it.
public final class AccountServices: Sendable {
    public let guards: AccountGuards
    public let options: SignInOptions
    let dummyHash: String

    /// Hashes one dummy password with `hasher` (tens of milliseconds, once).
    public init(hasher: PasswordHasher, guards: AccountGuards = AccountGuards(), options: SignInOptions = SignInOptions()) throws {
        self.guards = guards
        self.options = options
        self.dummyHash = try hasher.hash(Tokens.random())
    }

    /// Adds the kit's models for one event to `environment`, bound to `connection`;
    /// `deviceToken` is the client's `Device-Token` header.
    public func add(
        to environment: inout Environment, connection: any SQLConnection, passwords: PreparedPasswords,
        clientAddress: String, now: Int64, deviceToken: String? = nil
    ) {
        environment.set(
            AccountModels(
                connection: connection, users: AccountStore(connection: connection), passwords: passwords, guards: guards,
                clientAddress: clientAddress, deviceToken: deviceToken, now: now, dummyHash: dummyHash, options: options,
                lasting: LastingWrites(connection: connection)))
    }
}

/// What the kit's coordinators reach for one event.
public struct AccountModels {
    /// The connection the event commits on (the throttles write their counts there).
    public let connection: any SQLConnection
    public let users: AccountStore
    public let passwords: PreparedPasswords
    public let guards: AccountGuards
    public let clientAddress: String
    /// The `Device-Token` the client sent, unverified (`DeviceCredentials` checks it).
    public let deviceToken: String?
    public let now: Int64
    /// Verified against when the e-mail is unknown, so both failures take the same time.
    let dummyHash: String
    public let options: SignInOptions
    /// Where writes go that must commit even if the event is refused (a failed password check):
    /// the session service's `LastingWrites` for this run; without one (a flow driven by hand),
    /// writes on `connection` that commit or roll back with the event.
    var lasting: LastingWrites
}

extension Context {
    /// The sign-in kit's models for this event (`AccountServices.add(to:…)` put them in the environment).
    public var accounts: AccountModels {
        get throws {
            var models = try environment.require(AccountModels.self)
            if let lasting = environment[LastingWrites.self] { models.lasting = lasting }
            return models
        }
    }
}
