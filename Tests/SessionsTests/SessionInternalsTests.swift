import Foundation
import Navigation
import SQLiteStore
import SessionStorage
import Store
import Testing

@testable import Sessions

/// The session service's pieces that no HTTP test can time: the resident cache's pins and the
/// expiry a read stores.
@Suite struct SessionInternalsTests {
    static func session(_ id: String) throws -> ResidentSession {
        let app = NavigationApp(screens: [IdleScreen.self], coordinators: [Idle.self], root: { _ in Idle() })
        return ResidentSession(
            id: id,
            state: .init(
                tree: try app.start(platform: .phone, environment: Environment()), version: 1, snapshot: [], tokenHash: Array(id.utf8),
                expiresAt: 0))
    }

    enum IdleScreen: ScreenType { static let name = "idle" }

    /// A root that shows one screen and handles nothing.
    struct Idle: Coordinator {
        static let typeName = "Idle"
        mutating func start(_ context: inout Context) throws { try context.push(IdleScreen.self) }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
    }

    /// A temporary database with coordinatord's own migrations applied.
    static let tables = SQLiteSessionPersistence()

    static func migratedDatabase() throws -> SQLiteConnection {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sessions-\(UUID().uuidString).sqlite").path
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let connection = try SQLiteConnection(path: path)
        try Migrator(migrations: Migration.load(directory: repository.appendingPathComponent("migrations/sqlite").path))
            .migrate(connection)
        return connection
    }

    /// A session a request holds is never evicted, so no second copy of it is ever loaded.
    @Test func aPinnedSessionIsNeverEvicted() throws {
        let cache = SessionCache(capacity: 2)
        let pinned = cache.insert(try Self.session("a")).resident
        for id in ["b", "c", "d", "e"] { cache.insert(try Self.session(id)).resident.release() }
        #expect(cache.checkOut("a") === pinned)
        pinned.release()
        pinned.release()
        for id in ["f", "g", "h"] { cache.insert(try Self.session(id)).resident.release() }
        #expect(cache.checkOut("a") == nil)
        #expect(cache.count <= 2)
        #expect(cache.evictions >= 5)
    }

    /// A read's expiry, stored late, never moves back one that an event stored meanwhile.
    @Test func storingAReadsExpiryNeverMovesItBack() throws {
        let connection = try Self.migratedDatabase()
        try Self.tables.insertSession(
                id: "s", tokenHash: [1], snapshot: [2], userID: nil, now: 100, expiresAt: 7300, on: connection)
        // An event commits a later expiry...
        #expect(
            try Self.tables.updateSession(
                id: "s", expectedVersion: 1, snapshot: [3], identity: nil, now: 200, expiresAt: 9000,
                previousExpiresAt: 7300, on: connection))
        // ...then the expiry a read moved earlier is stored.
        try Self.tables.touchSession(id: "s", now: 150, expiresAt: 7350, on: connection)
        let stored = try connection.queryFirst("SELECT expires_at, expires_hour, last_used_at FROM sessions") {
            [$0.int64(0), $0.int64(1), $0.int64(2)]
        }
        #expect(stored == [9000, 9000 / 3600, 200])
    }

    /// Each form of the update stores the snapshot and expiry, and the token and user only when
    /// given a new identity; the version must match.
    @Test func anUpdateStoresANewIdentityOnlyWhenGivenOne() throws {
        let connection = try Self.migratedDatabase()
        try Self.tables.insertSession(
                id: "s", tokenHash: [1], snapshot: [2], userID: nil, now: 100, expiresAt: 7300, on: connection)
        func stored() throws -> [SQLValue]? {
            try connection.queryFirst("SELECT version, snapshot, token_hash, user_id, expires_at, expires_hour FROM sessions") {
                [.int($0.int(0)), .blob($0.blob(1)), .blob($0.blob(2)), $0.isNull(3) ? .null : .integer($0.int64(3)),
                 .integer($0.int64(4)), .integer($0.int64(5))]
            }
        }
        let signedIn = SessionIdentity(tokenHash: [9], userID: 5)
        #expect(
            try Self.tables.updateSession(
                id: "s", expectedVersion: 1, snapshot: [3], identity: signedIn, now: 200, expiresAt: 7400,
                previousExpiresAt: 7300, on: connection))
        #expect(try stored() == [.int(2), .blob([3]), .blob([9]), .integer(5), .integer(7400), .integer(2)])
        #expect(
            try Self.tables.updateSession(
                id: "s", expectedVersion: 2, snapshot: [4], identity: nil, now: 300, expiresAt: 11000,
                previousExpiresAt: 7400, on: connection))
        #expect(try stored() == [.int(3), .blob([4]), .blob([9]), .integer(5), .integer(11000), .integer(3)])
        #expect(
            try Self.tables.updateSession(
                id: "s", expectedVersion: 3, snapshot: [5], identity: SessionIdentity(tokenHash: [7], userID: nil),
                now: 400, expiresAt: 14500, previousExpiresAt: 11000, on: connection))
        #expect(try stored() == [.int(4), .blob([5]), .blob([7]), .null, .integer(14500), .integer(4)])
        #expect(
            try !Self.tables.updateSession(
                id: "s", expectedVersion: 3, snapshot: [6], identity: nil, now: 500, expiresAt: 14600,
                previousExpiresAt: 14500, on: connection))
    }

    /// Account-level session control: an app looks up a user's live sessions, current one marked.
    @Test func theSessionDirectoryListsAUsersLiveSessions() throws {
        let connection = try Self.migratedDatabase()
        for (id, user, lastUsed, expires) in [("a", 7, 100, 9000), ("b", 7, 300, 9000), ("c", 8, 200, 9000), ("d", 7, 50, 10)] {
            try Self.tables.insertSession(
                id: id, tokenHash: Array(id.utf8), snapshot: [0], userID: Int64(user), now: Int64(lastUsed),
                expiresAt: Int64(expires), on: connection)
        }
        let sessions = try StoreSessionDirectory(tables: Self.tables, connection: connection, current: "a", now: 1000).sessions(ofUser: 7)
        #expect(sessions.map(\.lastUsedAt) == [300, 100])  // live ones only, most recent first
        #expect(sessions.map(\.isCurrent) == [false, true])
        #expect(sessions.allSatisfy { $0.label.count == 8 && $0.label != "a" })
    }
}
