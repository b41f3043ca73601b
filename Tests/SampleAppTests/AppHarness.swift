import Foundation
import Navigation
import SQLiteStore
import Store
@testable import SampleApp
import Secrets

/// The shipped app on an in-memory SQLite database, driven event by event like the session
/// service does: each attempt in a transaction, password work done between attempts.
struct AppHarness {
    static let hasher = PasswordHasher(operations: 1, memoryBytes: 8 * 1024)
    /// coordinatord's own migrations, then the app's, as the server applies them.
    static let migrations: [Migration] = {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let core = (try? Migration.load(directory: repository.appendingPathComponent("migrations/sqlite").path)) ?? []
        return core + ((try? SampleApp.migrations(for: .sqlite)) ?? [])
    }()

    let connection: SQLiteConnection
    let services: SampleAppServices
    let pool = PasswordHashPool(hasher: hasher)
    var tree: NavigationTree
    var now: Int64 = 1_800_000_000
    var clientAddress = "192.0.2.1"
    /// The `Device-Token` this client sends; set from an answer's by `keepDeviceToken`.
    var deviceToken: String?
    /// The `deviceToken` of the last answer that carried one.
    var givenDeviceToken: String?

    init(platform: Platform = .phone, connection: SQLiteConnection? = nil, guards: SampleAppGuards = SampleAppGuards()) throws {
        let connection = try connection ?? Self.database()
        self.connection = connection
        services = try SampleAppServices(hasher: Self.hasher, guards: guards)
        let environment = services.environment(
            connection: connection, passwords: PreparedPasswords(hasher: Self.hasher), clientAddress: "", now: 0)
        tree = try SampleApp.navigation.start(platform: platform, environment: environment)
    }

    static func database() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: ":memory:")
        try Migrator(migrations: migrations).migrate(connection)
        return connection
    }

    /// Sends `event` from the top screen; the tree changes only if it succeeds. As the session
    /// service does, a refused event's lasting writes (`LastingWrites`) commit on their own.
    @discardableResult
    mutating func send(_ event: String, _ payload: JSONValue = .null) async throws -> EventOutcome {
        var prepared = PreparedPasswords(hasher: Self.hasher)
        now += 1
        // A few rounds of password work at most, as the session service allows.
        for _ in 0..<8 {
            var working = tree
            var environment = services.environment(
                connection: connection, passwords: prepared, clientAddress: clientAddress, now: now, deviceToken: deviceToken)
            let lasting = LastingWrites(connection: connection)
            environment.set(lasting)
            do {
                let outcome = try connection.transaction {
                    try SampleApp.navigation.apply(
                        IncomingEvent(screen: working.top!.id, name: event, payload: payload), to: &working,
                        environment: environment)
                }
                tree = working
                if let given = outcome.deviceToken { givenDeviceToken = given }
                return outcome
            } catch let needed as PasswordWorkNeeded {
                try await prepared.perform(needed.work, on: pool)
            } catch {
                try connection.transaction {
                    for write in lasting.performed { try write(connection) }
                }
                throw error
            }
        }
        throw NavigationError("\(event) kept asking for password work")
    }

    /// From now on, sends the device token the last answer gave.
    mutating func keepDeviceToken() {
        deviceToken = givenDeviceToken
    }

    /// Sends `output` from the top screen, which must be a `screen`: the flow as typed values.
    @discardableResult
    mutating func send<S: ScreenType>(_ screen: S.Type, _ output: S.Output) async throws -> EventOutcome {
        guard top.name == S.name else { throw NavigationError("the top screen is \(top.name), not \(S.name)") }
        let event = try IncomingEvent(screen, output, on: top.id)
        return try await send(event.name, event.payload)
    }

    /// The top screen's props, as a `screen`'s typed props.
    func props<S: ScreenType>(_ screen: S.Type) throws -> S.Props {
        guard top.name == S.name else { throw NavigationError("the top screen is \(top.name), not \(S.name)") }
        return try JSONValue.decode(S.Props.self, from: .object(top.props))
    }

    var top: Screen { tree.top! }
    var state: [String: JSONValue] { SampleApp.navigation.render(tree) }
    var accepted: [String] { SampleApp.navigation.acceptedEvents(in: tree) }

    func count(_ table: String) throws -> Int {
        try connection.queryFirst("SELECT count(*) FROM \(table)") { $0.int(0) } ?? 0
    }

    /// Registers through the three steps, ending signed in on the timeline.
    mutating func register(email: String = "ada@example.com", name: String = "Ada") async throws {
        try await send(FirstRunScreen.self, .signUp)
        try await send(SignUpEmailScreen.self, .next(EmailField(email: email)))
        try await send(SignUpPasswordScreen.self, .next(PasswordField(password: Self.password)))
        try await send(SignUpProfileScreen.self, .finish(DisplayNameField(displayName: name)))
    }

    static let password = "correct horse battery staple"
}
