import Foundation
import Navigation
import SQLiteStore
import SampleApp
import Secrets

/// The shipped app on an in-memory SQLite database, driven event by event like the session
/// service does: each attempt in a transaction, password work done between attempts.
struct AppHarness {
    static let hasher = PasswordHasher(operations: 1, memoryBytes: 8 * 1024)
    /// coordinatord's own migrations, then the app's, as the server applies them.
    static let migrations: [Migration] = {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let core = (try? Migration.load(directory: repository.appendingPathComponent("migrations").path)) ?? []
        return core + ((try? SampleApp.migrations()) ?? [])
    }()

    let connection: Connection
    let services: SampleAppServices
    let pool = PasswordHashPool(hasher: hasher)
    var tree: NavigationTree
    var now: Int64 = 1_800_000_000
    var clientAddress = "192.0.2.1"

    init(platform: Platform = .phone, connection: Connection? = nil, guards: SampleAppGuards = SampleAppGuards()) throws {
        let connection = try connection ?? Self.database()
        self.connection = connection
        services = try SampleAppServices(hasher: Self.hasher, guards: guards)
        let environment = services.environment(
            connection: connection, passwords: PreparedPasswords(hasher: Self.hasher), clientAddress: "", now: 0)
        tree = try SampleApp.navigation.start(platform: platform, environment: environment)
    }

    static func database() throws -> Connection {
        let connection = try Connection(path: ":memory:")
        try Migrator(migrations: migrations).migrate(connection)
        return connection
    }

    /// Sends `event` from the top screen; the tree changes only if it succeeds.
    @discardableResult
    mutating func send(_ event: String, _ payload: JSONValue = .null) async throws -> EventOutcome {
        var prepared = PreparedPasswords(hasher: Self.hasher)
        now += 1
        while true {
            var working = tree
            do {
                let environment = services.environment(
                    connection: connection, passwords: prepared, clientAddress: clientAddress, now: now)
                let outcome = try connection.transaction {
                    try SampleApp.navigation.apply(
                        IncomingEvent(screen: working.top!.id, name: event, payload: payload), to: &working,
                        environment: environment)
                }
                tree = working
                return outcome
            } catch let needed as PasswordWorkNeeded {
                try await prepared.perform(needed.work, on: pool)
            }
        }
    }

    var top: Screen { tree.top! }
    var state: [String: JSONValue] { SampleApp.navigation.render(tree) }
    var accepted: [String] { SampleApp.navigation.acceptedEvents(in: tree) }

    func count(_ table: String) throws -> Int {
        try connection.queryFirst("SELECT count(*) FROM \(table)") { $0.int(0) } ?? 0
    }

    /// Registers through the three steps, ending signed in on the timeline.
    mutating func register(email: String = "ada@example.com", name: String = "Ada") async throws {
        try await send("signUp")
        try await send("next", ["email": .string(email)])
        try await send("next", ["password": .string(Self.password)])
        try await send("finish", ["displayName": .string(name)])
    }

    static let password = "correct horse battery staple"
}
