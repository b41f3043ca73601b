import CoordinatorServer
import Navigation
import Secrets
import Sessions
import Store
import Synchronization

/// A small app that exercises what `AppTester` must run as the server does: password work,
/// prepared work, the clock, lasting writes of a refused event, ending other sessions.
enum Probe {
    /// How often the vault's flow ran, across the reruns of its events.
    final class Runs: Sendable {
        let count = Atomic(0)
    }

    enum VaultScreen: ScreenType {
        static let name = "vault"
        static let summary = "Keeps a secret."

        struct Props: Codable, Sendable, Equatable {
            var hash: String?
            var lookedUp: Int?
            var seenAt: Int64
            var user: Int64?
        }

        struct Secret: Codable, Sendable {
            var password: String
        }

        struct Member: Codable, Sendable {
            var id: Int
        }

        enum Output: ScreenOutput {
            case keep(Secret)
            case look
            case refuse
            case signIn(Member)
            case endOthers
            case forget
            static let events: [OutputEvent<Output>] = [
                .event("keep", Output.keep), .event("look", .look), .event("refuse", .refuse),
                .event("signIn", Output.signIn), .event("endOthers", .endOthers), .event("forget", .forget),
            ]
        }
    }

    struct VaultCoordinator: Coordinator {
        static let typeName = "Vault"
        var vault: ScreenID?
        /// Left out of the snapshot on purpose: `forget` sets it, and a restart would lose it.
        var forgotten = false

        enum CodingKeys: String, CodingKey {
            case vault
        }

        static func input(for event: ScreenEvent) throws -> VaultScreen.Output? { try event.output(VaultScreen.self) }

        mutating func start(_ context: inout Context) throws {
            let now = try context.environment.require(RequestInfo.self).now
            vault = try context.push(VaultScreen.self, .init(seenAt: now))
        }

        /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            guard let input = try Self.input(for: event) else { return .unhandled }
            try handle(input, &context)
            return .handled
        }

        mutating func handle(_ input: VaultScreen.Output, _ context: inout Context) throws {
            guard let vault else { return }
            let environment = context.environment
            environment[Runs.self]?.count.add(1, ordering: .relaxed)
            let now = try environment.require(RequestInfo.self).now
            let connection = try environment.require(Connection.self).connection
            switch input {
            case .keep(let secret):
                // Password work first, then slow work of the app's: two rounds before the last run.
                let hash = try environment.require(PreparedPasswords.self).hash(secret.password)
                let looked = try context.prepared("lookUp") { 42 }
                try context.update(vault, as: VaultScreen.self) {
                    $0.hash = hash
                    $0.lookedUp = looked
                }
            case .look:
                try context.update(vault, as: VaultScreen.self) { $0.seenAt = now }
            case .refuse:
                try connection.run("INSERT INTO probe_notes (note) VALUES ('plain')", [])
                try environment.require(LastingWrites.self).perform { connection in
                    try connection.run("INSERT INTO probe_notes (note) VALUES ('lasting')", [])
                }
                throw EventRejection.sessionLimit("the probe refuses")
            case .signIn(let member):
                context.signIn(SessionUser(id: Int64(member.id), displayName: "Member \(member.id)"))
                try context.update(vault, as: VaultScreen.self) { $0.user = Int64(member.id) }
            case .endOthers:
                if let user = context.user { context.endOtherSessions(ofUser: user.id) }
            case .forget:
                forgotten = true
            }
        }
    }

    /// The event's connection, as an app's model would hold it.
    struct Connection: @unchecked Sendable {  // used only within one run of an event, on its thread
        let connection: any SQLConnection
    }

    static let navigation = NavigationApp(
        screens: [VaultScreen.self], coordinators: [VaultCoordinator.self], root: { _ in VaultCoordinator() })

    /// The same app with a table of its members, checked as its users (`NavigationApp.userTable`).
    static let navigationWithMembers = NavigationApp(
        screens: [VaultScreen.self], coordinators: [VaultCoordinator.self], userTable: UserTable("probe_members"),
        root: { _ in VaultCoordinator() })

    static func served(runs: Runs = Runs(), members: Bool = false) -> ServedApp {
        ServedApp(
            name: "probe", navigation: members ? navigationWithMembers : navigation,
            migrations: { _ in
                [
                    Migration(scope: "probe", version: 1, name: "notes", sql: "CREATE TABLE probe_notes (note TEXT NOT NULL)"),
                    Migration(scope: "probe", version: 2, name: "members", sql: "CREATE TABLE probe_members (id INTEGER PRIMARY KEY)"),
                ]
            },
            environment: { _ in
                { connection, passwords, request in
                    var environment = Environment()
                    environment.set(passwords)
                    environment.set(request)
                    environment.set(runs)
                    environment.set(Connection(connection: connection))
                    return environment
                }
            })
    }
}
