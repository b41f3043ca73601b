import Foundation
import Logging
import Navigation
import SQLiteStore
import SessionStorage
import Store
import Secrets
import Synchronization
import Testing

@testable import Sessions

/// What many anonymous sessions may cost: memory (sessions that had no event leave it first),
/// and the writer's time when they expire together (the sweep deletes in bounded transactions,
/// and events commit between them).
@Suite struct AbuseBoundsTests {
    static func session(_ id: String, version: Int) throws -> ResidentSession {
        let session = try SessionInternalsTests.session(id)
        session.update { $0.version = version }
        return session
    }

    /// At the cap, new sessions that had no event push out each other, never the sessions in
    /// use (nor one that has had its first event since it came in). Before, the least recently
    /// used went first, whatever it was.
    @Test func aFloodOfNewSessionsEvictsOnlySessionsThatHadNoEvent() throws {
        let cache = SessionCache(capacity: 4)
        for id in ["used-1", "used-2"] { cache.insert(try Self.session(id, version: 3)).resident.release() }
        let fresh = cache.insert(try Self.session("first-event-since", version: 1)).resident
        fresh.update { $0.version = 2 }
        fresh.release()
        for index in 0..<20 { cache.insert(try Self.session("new-\(index)", version: 1)).resident.release() }

        #expect(cache.count == 4)
        #expect(cache.evictions == 19)
        for id in ["used-1", "used-2", "first-event-since", "new-19"] {
            let resident = cache.checkOut(id)
            #expect(resident != nil, "\(id) was evicted")
            resident?.release()
        }
    }

    /// Per-client limits count an IPv6 client by its /64 and an IPv4 client written as IPv6 as itself.
    @Test func clientsAreKeyedByAddressAndIPv6By64() {
        #expect(ClientKey.of("192.0.2.1") == "192.0.2.1")
        #expect(ClientKey.of("::ffff:192.0.2.1") == "192.0.2.1")
        #expect(ClientKey.of("2001:db8:0:1::5") == "2001:db8:0:1::/64")
        #expect(ClientKey.of("2001:db8:0:1:ffff:ffff:ffff:ffff") == ClientKey.of("2001:DB8::1:0:0:0:1"))
        #expect(ClientKey.of("2001:db8:0:2::1") != ClientKey.of("2001:db8:0:1::1"))
        #expect(ClientKey.of("") == "")
    }

    /// The creation limiter forgets clients whose bucket has refilled, so a flood from many
    /// addresses leaves no table behind; a client that is still limited stays limited.
    @Test func theCreationLimiterForgetsClientsItNoLongerLimits() {
        let limiter = CreationLimiter(perMinute: 1)
        #expect(limiter.take("198.51.100.1", now: 0) == nil)
        #expect(limiter.take("198.51.100.1", now: 0) == nil)
        #expect(limiter.take("198.51.100.1", now: 0) == 60)
        for index in 0..<3000 { #expect(limiter.take("10.0.\(index / 256).\(index % 256)", now: 100) == nil) }
        #expect(limiter.trackedClients <= 3001)
        // Two tokens a client, one a minute: four minutes on, every bucket is full again.
        for index in 0..<3000 { _ = limiter.take("10.1.\(index / 256).\(index % 256)", now: 400) }
        #expect(limiter.trackedClients <= 3000)  // the 3,001 earlier ones are gone: 6,001 kept otherwise
        #expect(limiter.take("198.51.100.1", now: 400) == nil)
    }

    /// The statements one write ran, with the rows each changed.
    final class StatementLog: Sendable {
        let entries = Mutex<[(sql: String, changes: Int)]>([])
    }

    /// Records each committed write of a real SQLite store: the sessions it deleted, or that it
    /// stored an event; after the first write that deleted sessions it runs `between` once.
    final class RecordingStore: SessionStore, Sendable {
        enum Commit: Equatable { case deletedSessions(Int), event }

        let base: SQLiteDatabase
        let commits = Mutex<[Commit]>([])
        let between = Mutex<(@Sendable () async throws -> Void)?>(nil)

        init(_ base: SQLiteDatabase) { self.base = base }

        var dialect: SQLDialect { base.dialect }
        var sessions: any SessionPersistence { base.sessions }
        var isShared: Bool { false }
        var location: String { base.location }

        func write<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
            let log = StatementLog()
            let result = try await base.write { connection in
                log.entries.withLock { $0 = [] }  // a write the writer runs again starts afresh
                return try work(RecordingConnection(connection, log))
            }
            let ran = log.entries.withLock { $0 }
            if let delete = ran.first(where: { $0.sql.hasPrefix("DELETE FROM sessions") }) {
                commits.withLock { $0.append(.deletedSessions(delete.changes)) }
                let hook = between.withLock { hook in
                    defer { hook = nil }
                    return hook
                }
                try await hook?()
            } else if ran.contains(where: { $0.sql.hasPrefix("UPDATE sessions SET version") }) {
                commits.withLock { $0.append(.event) }
            }
            return result
        }

        func read<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
            try await base.read(work)
        }

        func readOnly<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
            try await base.readOnly(work)
        }

        func healthProblem() async -> String? { await base.healthProblem() }
        func metrics() -> [StoreMetric] { [] }
        func close() async { await base.close() }
    }

    /// Passes every call to the real connection and notes each statement `run` (or run with
    /// `RETURNING`) and the rows it changed.
    final class RecordingConnection: SQLConnection {
        let base: any SQLConnection
        let log: StatementLog

        init(_ base: any SQLConnection, _ log: StatementLog) {
            self.base = base
            self.log = log
        }

        var dialect: SQLDialect { base.dialect }
        func execute(_ sql: String) throws { try base.execute(sql) }
        func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
            let changes = try base.run(sql, values)
            log.entries.withLock { $0.append((sql, changes)) }
            return changes
        }
        func query<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
            let rows = try base.query(sql, values, map)
            // A statement with `RETURNING` changed the rows it returned.
            if sql.contains("RETURNING") { log.entries.withLock { $0.append((sql, rows.count)) } }
            return rows
        }
        func queryFirst<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> T? {
            try base.queryFirst(sql, values, map)
        }
    }

    /// 25 sessions expire together; with batches of 10 the sweep deletes them in three
    /// transactions (10, 10, 5), and an event that arrives after the first one commits before
    /// the second. Before, one statement deleted all 25 and the event waited for it.
    @Test func theSweepDeletesInBoundedTransactionsAndAnEventCommitsBetween() async throws {
        let store = RecordingStore(try TestSessions.database("sweep"))
        let clock = ServiceClock.manual()
        let gate = PreparationTests.Gate()
        let service = SessionService(
            app: NavigationApp(
                screens: [PreparationTests.Board.self], coordinators: [PreparationTests.Counter.self],
                root: { _ in PreparationTests.Counter() }),
            store: store, passwords: PasswordHashPool(hasher: PasswordHasher(operations: 1, memoryBytes: 8192)),
            configuration: SessionConfiguration(
                idleTimeoutSeconds: 3600, unusedTimeoutSeconds: 300, sessionsPerMinute: 0, sweepBatchSize: 10, clock: clock),
            logger: Logger(label: "test"),
            environment: { _, _, _ in
                var environment = Environment()
                environment.set(gate)
                return environment
            })
        for _ in 0..<25 { _ = try await service.create(platform: .phone, clientAddress: "") }
        let live = try await service.create(platform: .phone, clientAddress: "")
        // A read keeps the live one (it has had no event either) past the others' expiry.
        clock.advance(seconds: 200)
        try await service.withSession(id: live.id, token: live.token) { _ = service.state(of: $0) }
        clock.advance(seconds: 101)
        let answer = Mutex<StoredAnswer?>(nil)
        store.between.withLock { hook in
            hook = {
                let posted = try await service.post(try PreparationTests.event("fast", session: live))
                answer.withLock { $0 = posted }
            }
        }
        store.commits.withLock { $0 = [] }
        await service.sweep()

        #expect(answer.withLock { $0?.version } == 2)
        #expect(store.commits.withLock { $0 } == [.deletedSessions(10), .event, .deletedSessions(10), .deletedSessions(5)])
        let left = try await store.read { try $0.query("SELECT id FROM sessions") { $0.string(0) } }
        #expect(left == [live.id])
    }
}
