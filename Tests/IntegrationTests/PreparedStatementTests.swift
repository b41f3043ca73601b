import Foundation
import PostgresStore
import Store
import TestSupport
import Testing

/// SQL with values in its text prepares a new statement each time; a PostgreSQL connection keeps
/// a bounded number of them on the server, and goes on answering past the bound.
@Suite struct PreparedStatementTests {
    @Test func aPostgresConnectionKeepsABoundedNumberOfPreparedStatements() async throws {
        let url = try await Backend.postgresql.newDatabase()
        let (answers, prepared) = try await TestHTTP.offPool {
            let connection = try PostgresConnection(url: url)
            let answers = try (0..<300).map { index in try connection.queryFirst("SELECT \(index)") { $0.int(0) } }
            let prepared = try connection.queryFirst("SELECT count(*) FROM pg_prepared_statements") { $0.int(0) }
            return (answers, prepared)
        }
        #expect(answers == (0..<300).map { $0 })
        #expect((prepared ?? .max) <= 256)
    }

    /// A statement found a moment ago is prepared again once the cache has started over: the
    /// texts found last, compared before the cache is hashed, start over with it.
    @Test func aStatementFoundLastIsPreparedAgainOnceTheCacheStartsOver() async throws {
        let url = try await Backend.postgresql.newDatabase()
        // Each text twice, then the three before it: each is found soon after it was prepared, so
        // the cache starting over (wherever it does) drops texts that were just found.
        let texts = (0..<PostgresConnection.maxPreparedStatements + 8).flatMap { index in
            [index, index, index - 1, index - 2, index - 3].filter { $0 >= 0 }
        }
        let answers = try await TestHTTP.offPool {
            let connection = try PostgresConnection(url: url)
            return try texts.map { index in try connection.queryFirst("SELECT \(index)") { $0.int(0) } }
        }
        #expect(answers == texts)
    }

    /// Every kind of value a statement binds reaches PostgreSQL as it was, however its neighbours
    /// are packed: the extremes of an integer, a real, empty and non-ASCII text, empty and binary
    /// blobs (a NUL inside, 0xFF), and NULL between them.
    @Test func boundValuesArriveAsTheyWere() async throws {
        let url = try await Backend.postgresql.newDatabase()
        let blob: [UInt8] = [0, 1, 0xFF, 0, 42]
        let row = try await TestHTTP.offPool {
            let connection = try PostgresConnection(url: url)
            return try connection.queryFirst(
                "SELECT ?1::bigint, ?2::bigint, ?3::bigint, ?4::float8, ?5::text, ?6::text, ?7::bytea, ?8::bytea, CASE WHEN ?9::text IS NULL THEN 1 ELSE 0 END, ?10::text",
                [.integer(.min), .integer(.max), .integer(0), .real(-2.5), .text(""), .text("é \"q\" \\ 日本"), .blob([]), .blob(blob), .null, .text("last")]
            ) { row in
                (row.int64(0), row.int64(1), row.int64(2), row.double(3), row.string(4), row.string(5), row.blob(6), row.blob(7),
                 row.int(8), row.string(9))
            }
        }
        let values = try #require(row)
        #expect(values.0 == .min && values.1 == .max && values.2 == 0)
        #expect(values.3 == -2.5)
        #expect(values.4 == "" && values.5 == "é \"q\" \\ 日本")
        #expect(values.6 == [] && values.7 == blob)
        #expect(values.8 == 1 && values.9 == "last")
    }

    /// A statement queued to follow `COMMIT` runs, as itself, even when the same write's later
    /// statements filled the cache of prepared statements (which drops them all): with the commit
    /// of a statement, and with the plain `COMMIT` of a write.
    @Test func aStatementQueuedAfterCommitSurvivesTheCacheStartingOver() async throws {
        let url = try await Backend.postgresql.newDatabase()
        let followed = try await TestHTTP.offPool {
            let connection = try PostgresConnection(url: url)
            try connection.execute("CREATE TABLE followed (n bigint); CREATE TABLE counter (id int PRIMARY KEY, v int)")
            try connection.execute("INSERT INTO counter VALUES (1, 0)")
            for commitsWithStatement in [true, false] {
                try connection.transaction {
                    _ = try connection.queryFirst("SELECT 1") { $0.int(0) }
                    try connection.runAfterCommit("INSERT INTO followed VALUES (?1)", [.integer(commitsWithStatement ? 1 : 2)])
                    // More statements than the cache holds, each with one parameter like the follower.
                    for index in 0..<300 { _ = try connection.queryFirst("SELECT ?1::bigint + \(index)", [.integer(0)]) { $0.int(0) } }
                    if commitsWithStatement {
                        #expect(try connection.commitIfChanged("UPDATE counter SET v = v + 1 WHERE id = ?1 RETURNING 1", [.integer(1)]))
                    } else {
                        try connection.run("UPDATE counter SET v = v + 1 WHERE id = ?1", [.integer(1)])
                    }
                }
            }
            return try connection.query("SELECT n FROM followed ORDER BY n") { $0.int(0) }
        }
        #expect(followed == [1, 2])
    }
}
