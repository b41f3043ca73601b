import Foundation
import SQLiteStore
import Store
import Testing

@Suite struct MigratorTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("migrator-\(UUID().uuidString).sqlite").path
    }

    static let first = Migration(version: 1, name: "people", sql: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    static let second = Migration(version: 2, name: "people_email", sql: "ALTER TABLE people ADD COLUMN email TEXT")

    /// An app whose embedded folder is missing or empty is told so in one line at start, instead
    /// of serving without its tables.
    @Test func noMigrationFilesAtAllIsAnError() throws {
        let error = #expect(throws: MigrationError.self) { try Migration.load(files: [:], scope: "shop") }
        #expect(error?.description.hasPrefix("no migration files (NNNN_name.sql) of shop:") == true)
        #expect(error?.description.contains("\n") == false)
        #expect(try Migration.load(files: ["0001_a.sql": Data("SELECT 1".utf8)], scope: "shop").count == 1)
    }

    @Test func newDatabaseGetsEveryMigrationInOrder() throws {
        let connection = try SQLiteConnection(path: Self.temporaryPath())
        let applied = try Migrator(migrations: [Self.first, Self.second]).migrate(connection)
        #expect(applied == [Self.first, Self.second])
        try connection.run("INSERT INTO people (name, email) VALUES (?1, ?2)", ["Ada", "ada@example.com"])
        let recorded = try Migrator(migrations: []).recorded(connection)
        #expect(recorded == [Migrator.Key(version: 1): "people", Migrator.Key(version: 2): "people_email"])
    }

    @Test func upToDateDatabaseAppliesNothing() throws {
        let path = Self.temporaryPath()
        try Migrator(migrations: [Self.first]).migrate(SQLiteConnection(path: path))
        let connection = try SQLiteConnection(path: path)
        #expect(try Migrator(migrations: [Self.first, Self.second]).migrate(connection) == [Self.second])
        #expect(try Migrator(migrations: [Self.first, Self.second]).migrate(connection) == [])
    }

    @Test func databaseFromANewerBuildIsRefused() throws {
        let path = Self.temporaryPath()
        try Migrator(migrations: [Self.first, Self.second]).migrate(SQLiteConnection(path: path))
        let error = #expect(throws: MigrationError.self) {
            try Migrator(migrations: [Self.first]).migrate(SQLiteConnection(path: path))
        }
        #expect(error?.description.contains("core/2_people_email") == true)
    }

    @Test func failingMigrationLeavesNoTrace() throws {
        let broken = Migration(version: 2, name: "broken", sql: "CREATE TABLE pets (id INTEGER); SELECT nope FROM nowhere")
        let connection = try SQLiteConnection(path: Self.temporaryPath())
        #expect(throws: SQLiteError.self) { try Migrator(migrations: [Self.first, broken]).migrate(connection) }
        #expect(try Migrator(migrations: []).recorded(connection) == [Migrator.Key(version: 1): "people"])
        let pets = try connection.query("SELECT name FROM sqlite_master WHERE name = 'pets'") { $0.string(0) }
        #expect(pets.isEmpty)
    }

    @Test func loadsNumberedFilesFromAFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "CREATE TABLE b (x)".write(to: folder.appendingPathComponent("0002_b.sql"), atomically: true, encoding: .utf8)
        try "CREATE TABLE a (x)".write(to: folder.appendingPathComponent("0001_a.sql"), atomically: true, encoding: .utf8)
        try "notes".write(to: folder.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        let migrations = try Migration.load(directory: folder.path)
        #expect(migrations.map(\.version) == [1, 2])
        #expect(migrations.map(\.name) == ["a", "b"])
    }

    @Test func theCoreMigrationsApplyCleanly() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let migrations = try Migration.load(directory: repository.appendingPathComponent("migrations/sqlite").path)
        #expect(!migrations.isEmpty)
        let connection = try SQLiteConnection(path: Self.temporaryPath())
        #expect(try Migrator(migrations: migrations).migrate(connection).count == migrations.count)
        #expect(try connection.queryFirst("PRAGMA integrity_check") { $0.string(0) } == "ok")
    }

    /// Core and app migrations number on their own; the same version in two scopes is two migrations.
    @Test func scopesNumberTheirMigrationsApart() throws {
        let app = Migration(scope: "shop", version: 1, name: "carts", sql: "CREATE TABLE carts (id INTEGER PRIMARY KEY)")
        let connection = try SQLiteConnection(path: Self.temporaryPath())
        #expect(try Migrator(migrations: [Self.first, app]).migrate(connection) == [Self.first, app])
        #expect(
            try Migrator(migrations: []).recorded(connection)
                == [Migrator.Key(version: 1): "people", Migrator.Key(scope: "shop", version: 1): "carts"])
        // Another app on the same database is refused.
        let other = Migration(scope: "blog", version: 1, name: "posts", sql: "CREATE TABLE posts (id INTEGER)")
        #expect(throws: MigrationError.self) { try Migrator(migrations: [Self.first, other]).migrate(connection) }
    }

    /// Earlier builds kept one numbering for everything; each recorded migration is given the
    /// scope of the known migration with its version and name.
    @Test func theBookkeepingOfEarlierBuildsIsUpgradedInPlace() throws {
        let connection = try SQLiteConnection(path: Self.temporaryPath())
        try connection.execute(
            """
            CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO schema_migrations VALUES (1, 'people', '2026-01-01T00:00:00Z');
            CREATE TABLE carts (id INTEGER PRIMARY KEY);
            INSERT INTO schema_migrations VALUES (2, 'carts', '2026-01-02T00:00:00Z');
            """)
        let carts = Migration(scope: "shop", version: 2, name: "carts", sql: "CREATE TABLE carts (id INTEGER PRIMARY KEY)")
        let next = Migration(scope: "shop", version: 3, name: "lines", sql: "CREATE TABLE lines (id INTEGER PRIMARY KEY)")
        #expect(try Migrator(migrations: [Self.first, carts, next]).migrate(connection) == [next])
        let rows = try connection.query("SELECT scope, version, applied_at FROM schema_migrations ORDER BY version") {
            "\($0.string(0)) \($0.int(1)) \($0.string(2))"
        }
        #expect(rows.prefix(2) == ["core 1 2026-01-01T00:00:00Z", "shop 2 2026-01-02T00:00:00Z"])
        #expect(rows.count == 3)
    }
}
