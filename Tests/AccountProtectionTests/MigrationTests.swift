import AccountProtection
import Foundation
import Navigation
import PostgresStore
import SQLiteStore
import Store
import TestSupport
import Testing

/// The module's migrations give an app the tables of its throttles, limiter and device
/// credentials, on SQLite and PostgreSQL, and keep tables an app's own migrations made earlier.
@Suite struct MigrationTests {
    /// A connection to a new database of `backend`, with `migrations` applied; and what they applied.
    static func migrated(_ migrations: (SQLDialect) throws -> [Migration], on backend: Backend, database: String? = nil)
        async throws -> (connection: any SQLConnection, applied: [Migration], database: String)
    {
        let database = if let database { database } else { try await backend.newDatabase() }
        switch backend {
        case .sqlite:
            let connection = try SQLiteConnection(path: database)
            return (connection, try Migrator(migrations: migrations(.sqlite)).migrate(connection), database)
        case .postgresql:
            let connection = try PostgresConnection(url: database)
            return (connection, try PostgresMigrator(migrations: migrations(.postgresql)).migrate(connection), database)
        }
    }

    @Test(arguments: Backend.allCases)
    func aNewDatabaseGetsTheTablesAndEveryProtectionWorksOnThem(backend: Backend) async throws {
        let (connection, applied, _) = try await Self.migrated(AccountProtection.migrations(for:), on: backend)
        #expect(applied.map { "\($0.scope)/\($0.version)" } == ["account-protection/1", "account-protection/2"])

        let limiter = RateLimiter(subject: "registrations", capacity: 1, refillSeconds: 60)
        try limiter.take("client", now: 0, on: connection)
        #expect(throws: EventThrottled.self) { try limiter.take("client", now: 1, on: connection) }

        let throttle = FailureThrottle(subject: "sign-ins")
        for _ in 0..<throttle.policy.freeFailures {
            let attempt = try throttle.check(account: "ada", client: "client", now: 0, on: connection)
            try throttle.recordFailure(attempt, now: 0, lasting: LastingWrites(connection: connection))
        }
        #expect(throws: EventThrottled.self) { try throttle.check(account: "ada", client: "client", now: 0, on: connection) }

        let devices = DeviceCredentials()
        let token = try devices.issue(toUser: 7, now: 0, on: connection)
        #expect(try devices.credential(token, ofUser: 7, now: 1, on: connection) != nil)
        #expect(try devices.credential(token, ofUser: 8, now: 1, on: connection) == nil)
        try devices.revoke(ofUser: 7, keeping: nil, on: connection)
        #expect(try devices.credential(token, ofUser: 7, now: 1, on: connection) == nil)
    }

    /// An app whose own migrations made these tables before the module existed (the sample app
    /// did, under its scope) includes the module's migrations: they are recorded, and its tables
    /// and rows stay as they were.
    @Test(arguments: Backend.allCases)
    func tablesAnAppMadeBeforeAreKept(backend: Backend) async throws {
        let earlier = Migration(
            scope: "app", version: 1, name: "throttles",
            sql: """
                CREATE TABLE throttle_failures (
                    subject TEXT NOT NULL, key TEXT NOT NULL, count INTEGER NOT NULL, last INTEGER NOT NULL,
                    PRIMARY KEY (subject, key));
                CREATE INDEX throttle_failures_last ON throttle_failures (subject, last);
                INSERT INTO throttle_failures (subject, key, count, last) VALUES ('sign-ins', 'kept', 5, 100);
                """)
        let (_, _, database) = try await Self.migrated({ _ in [earlier] }, on: backend)
        let (connection, applied, _) = try await Self.migrated(
            { try [earlier] + AccountProtection.migrations(for: $0) }, on: backend, database: database)
        #expect(applied.map { "\($0.scope)/\($0.version)" } == ["account-protection/1", "account-protection/2"])
        let kept = try connection.queryFirst("SELECT count FROM throttle_failures WHERE key = 'kept'") { $0.int(0) }
        #expect(kept == 5)
        // The rate buckets it did not have are there now.
        try RateLimiter(subject: "registrations", capacity: 1, refillSeconds: 60).take("client", now: 0, on: connection)
    }
}
