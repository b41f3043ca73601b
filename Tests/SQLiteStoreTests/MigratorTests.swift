import Foundation
import SQLiteStore
import Testing

@Suite struct MigratorTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("migrator-\(UUID().uuidString).sqlite").path
    }

    static let first = Migration(version: 1, name: "people", sql: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    static let second = Migration(version: 2, name: "people_email", sql: "ALTER TABLE people ADD COLUMN email TEXT")

    @Test func newDatabaseGetsEveryMigrationInOrder() throws {
        let connection = try Connection(path: Self.temporaryPath())
        let applied = try Migrator(migrations: [Self.first, Self.second]).migrate(connection)
        #expect(applied == [Self.first, Self.second])
        try connection.run("INSERT INTO people (name, email) VALUES (?1, ?2)", ["Ada", "ada@example.com"])
        let recorded = try Migrator(migrations: []).recorded(connection)
        #expect(recorded == [1: "people", 2: "people_email"])
    }

    @Test func upToDateDatabaseAppliesNothing() throws {
        let path = Self.temporaryPath()
        try Migrator(migrations: [Self.first]).migrate(Connection(path: path))
        let connection = try Connection(path: path)
        #expect(try Migrator(migrations: [Self.first, Self.second]).migrate(connection) == [Self.second])
        #expect(try Migrator(migrations: [Self.first, Self.second]).migrate(connection) == [])
    }

    @Test func databaseFromANewerBuildIsRefused() throws {
        let path = Self.temporaryPath()
        try Migrator(migrations: [Self.first, Self.second]).migrate(Connection(path: path))
        let error = #expect(throws: MigrationError.self) {
            try Migrator(migrations: [Self.first]).migrate(Connection(path: path))
        }
        #expect(error?.description.contains("2_people_email") == true)
    }

    @Test func failingMigrationLeavesNoTrace() throws {
        let broken = Migration(version: 2, name: "broken", sql: "CREATE TABLE pets (id INTEGER); SELECT nope FROM nowhere")
        let connection = try Connection(path: Self.temporaryPath())
        #expect(throws: SQLiteError.self) { try Migrator(migrations: [Self.first, broken]).migrate(connection) }
        #expect(try Migrator(migrations: []).recorded(connection) == [1: "people"])
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

    @Test func theRepositoryMigrationsApplyCleanly() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let migrations = try Migration.load(directory: repository.appendingPathComponent("migrations").path)
        #expect(!migrations.isEmpty)
        let connection = try Connection(path: Self.temporaryPath())
        #expect(try Migrator(migrations: migrations).migrate(connection).count == migrations.count)
        #expect(try connection.queryFirst("PRAGMA integrity_check") { $0.string(0) } == "ok")
    }
}
