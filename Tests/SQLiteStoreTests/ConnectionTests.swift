import Foundation
@testable import SQLiteStore
import Store
import Testing

@Suite struct ConnectionTests {
    static func open() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: MigratorTests.temporaryPath())
        try connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE, data BLOB, score REAL)")
        return connection
    }

    @Test func pragmasAreSet() throws {
        let connection = try Self.open()
        #expect(try connection.queryFirst("PRAGMA journal_mode") { $0.string(0) } == "wal")
        #expect(try connection.queryFirst("PRAGMA synchronous") { $0.int(0) } == 2)  // FULL
        #expect(try connection.queryFirst("PRAGMA foreign_keys") { $0.int(0) } == 1)
    }

    /// SQL with values in its text makes a new statement each time: the cache stays bounded, and
    /// a statement whose rows are being read survives the cache starting over under it.
    @Test func theStatementCacheIsBounded() throws {
        let connection = try Self.open()
        try connection.run("INSERT INTO notes (body) VALUES ('a'), ('b')")
        let limit = SQLiteConnection.maxCachedStatements
        let bodies = try connection.query("SELECT body FROM notes ORDER BY body") { row in
            for index in 0..<(limit + 10) { _ = try connection.queryFirst("SELECT \(index)") { $0.int(0) } }
            return row.string(0)
        }
        #expect(bodies == ["a", "b"])
        #expect(connection.cachedStatements <= limit)
    }

    @Test func typedBindsAndReadsRoundTrip() throws {
        let connection = try Self.open()
        try connection.run(
            "INSERT INTO notes (body, data, score) VALUES (?1, ?2, ?3)", [.text("héllo 'quoted'"), .blob([0, 1, 255]), 2.5])
        let row = try connection.queryFirst("SELECT id, body, data, score FROM notes") {
            ($0.int64(0), $0.string(1), $0.blob(2), $0.double(3))
        }
        #expect(row?.0 == connection.lastInsertRowID)
        #expect(row?.1 == "héllo 'quoted'")
        #expect(row?.2 == [0, 1, 255])
        #expect(row?.3 == 2.5)
        #expect(try connection.queryFirst("SELECT body FROM notes WHERE id = ?1", [999]) { $0.string(0) } == nil)
    }

    @Test func statementErrorsCarryCodeMessageAndSQL() throws {
        let connection = try Self.open()
        let syntax = #expect(throws: SQLiteError.self) { try connection.run("SELEKT 1") }
        #expect(syntax?.sql == "SELEKT 1")
        #expect(syntax?.message.contains("syntax error") == true)

        try connection.run("INSERT INTO notes (body) VALUES (?1)", ["once"])
        let unique = #expect(throws: SQLiteError.self) { try connection.run("INSERT INTO notes (body) VALUES (?1)", ["once"]) }
        #expect(unique?.isUniqueViolation == true)
        #expect(unique?.sql == "INSERT INTO notes (body) VALUES (?1)")
        #expect(unique?.description.contains("UNIQUE constraint failed") == true)
    }

    @Test func wrongParameterCountIsAnError() throws {
        let connection = try Self.open()
        #expect(throws: SQLiteError.self) { try connection.run("INSERT INTO notes (body) VALUES (?1)", []) }
    }

    @Test func transactionRollsBackOnError() throws {
        let connection = try Self.open()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.transaction {
                try connection.run("INSERT INTO notes (body) VALUES (?1)", ["lost"])
                throw Stop()
            }
        }
        #expect(try connection.query("SELECT body FROM notes") { $0.string(0) } == [])
    }
}
