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

    /// A savepoint that changes far more than 64 KiB of pages the transaction had changed before
    /// (the writer's batches: one savepoint per write) keeps its statement journal in memory:
    /// no temporary file is open meanwhile (SQLite names them `etilqs_…` and deletes them at once,
    /// so they show only among the process's descriptors).
    @Test func aSavepointsJournalStaysInMemory() throws {
        #expect(SQLiteConnection.statementJournalsInMemory)
        let connection = try Self.open()
        let row = [UInt8](repeating: 7, count: 3_000)
        try connection.run("BEGIN IMMEDIATE")
        for index in 0..<200 { try connection.run("INSERT INTO notes (body, data) VALUES (?1, ?2)", [.text("\(index)"), .blob(row)]) }
        try connection.run("SAVEPOINT write")
        try connection.run("UPDATE notes SET data = zeroblob(3000)")
        let temporaryFiles = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"))?.contains("etilqs_") == true
        }
        try connection.run("ROLLBACK TO write")
        try connection.run("RELEASE write")
        #expect(try connection.queryFirst("SELECT count(*) FROM notes WHERE data = zeroblob(3000)") { $0.int(0) } == 0)
        try connection.run("ROLLBACK")
        #expect(temporaryFiles.isEmpty)
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

    /// Texts and blobs are bound where the statement keeps its own copy of them (not SQLite's
    /// copy per value): what was bound must read back whatever became of the values passed in,
    /// as the right type (an empty text or blob is not NULL), across a buffer that grows and shrinks.
    @Test func boundTextsAndBlobsReadBackAsBound() throws {
        let connection = try Self.open()
        let insert = "INSERT INTO notes (body, data) VALUES (?1, ?2)"
        var expected: [(String, [UInt8])] = [("", []), ("nul\0inside", [0, 0, 7]), ("é", [1])]
        for size in [10, 200, 70_000, 300_000, 3] {
            // Built here and gone after the call: the statement may not point at these.
            expected.append((String(repeating: "x", count: size) + "\(size)", [UInt8](repeating: UInt8(size % 251), count: size)))
        }
        for (body, data) in expected { try connection.run(insert, [.text(body), .blob(data)]) }
        let rows = try connection.query("SELECT body, data, typeof(body), typeof(data) FROM notes ORDER BY id") {
            ($0.string(0), $0.blob(1), $0.string(2), $0.string(3))
        }
        #expect(rows.map(\.0) == expected.map(\.0))
        #expect(rows.map(\.1) == expected.map(\.1))
        #expect(rows.allSatisfy { $0.2 == "text" && $0.3 == "blob" })
    }

    /// The cache finds a statement by its text, whether the text is the same value or an equal
    /// one built elsewhere, and prepares it once.
    @Test func equalTextsShareOneStatement() throws {
        let connection = try Self.open()
        let literal = "SELECT count(*) FROM notes WHERE body = ?1"
        for index in 0..<5 {
            let built = ["SELECT count(*) FROM notes", "WHERE body = ?1"].joined(separator: " ")
            #expect(try connection.queryFirst(index % 2 == 0 ? literal : built, [.text("a")]) { $0.int(0) } == 0)
        }
        #expect(try connection.statement(literal) === connection.statement(String(literal.reversed().reversed())))
        #expect(connection.cachedStatements == 1)
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
