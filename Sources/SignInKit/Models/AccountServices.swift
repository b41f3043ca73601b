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
                connection: connection, passwords: passwords, guards: guards, clientAddress: clientAddress,
                deviceToken: deviceToken, now: now, dummyHash: dummyHash, options: options))
    }
}

/// What the kit's coordinators reach for one event.
public struct AccountModels {
    // The fields are made once per event and only read afterwards: kept behind one reference, a
    // copy of the models (into the environment, out of it for each coordinator that asks) retains
    // one object instead of every string, connection and table of them.
    private final class Fields {
        let connection: any SQLConnection
        let users: AccountStore
        let passwords: PreparedPasswords
        let guards: AccountGuards
        let clientAddress: String
        let deviceToken: String?
        let now: Int64
        let dummyHash: String
        let options: SignInOptions

        init(
            connection: any SQLConnection, passwords: PreparedPasswords, guards: AccountGuards, clientAddress: String,
            deviceToken: String?, now: Int64, dummyHash: String, options: SignInOptions
        ) {
            self.connection = connection
            self.users = AccountStore(connection: connection)
            self.passwords = passwords
            self.guards = guards
            self.clientAddress = clientAddress
            self.deviceToken = deviceToken
            self.now = now
            self.dummyHash = dummyHash
            self.options = options
        }
    }

    private let fields: Fields

    /// The connection the event commits on (the throttles write their counts there).
    public var connection: any SQLConnection { fields.connection }
    public var users: AccountStore { fields.users }
    public var passwords: PreparedPasswords { fields.passwords }
    public var guards: AccountGuards { fields.guards }
    public var clientAddress: String { fields.clientAddress }
    /// The `Device-Token` the client sent, unverified (`DeviceCredentials` checks it).
    public var deviceToken: String? { fields.deviceToken }
    public var now: Int64 { fields.now }
    /// Verified against when the e-mail is unknown, so both failures take the same time.
    var dummyHash: String { fields.dummyHash }
    public var options: SignInOptions { fields.options }
    /// Where writes go that must commit even if the event is refused (a failed password check):
    /// the session service's `LastingWrites` for this run; without one (a flow driven by hand),
    /// writes on `connection` that commit or roll back with the event.
    var lasting: LastingWrites

    init(
        connection: any SQLConnection, passwords: PreparedPasswords, guards: AccountGuards, clientAddress: String,
        deviceToken: String?, now: Int64, dummyHash: String, options: SignInOptions
    ) {
        fields = Fields(
            connection: connection, passwords: passwords, guards: guards, clientAddress: clientAddress,
            deviceToken: deviceToken, now: now, dummyHash: dummyHash, options: options)
        lasting = LastingWrites(connection: connection)
    }
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
