import Foundation
import TestSupport
import Testing

/// Errors an app causes are answered as what they are (issue 20, item 8), on SQLite and PostgreSQL,
/// by a test-only app served by the server library (`Tests/FlowFaultsApp`): a statement of its
/// flow that the database refuses is a bug, `500` `statement-failed`, logged with the cause and the
/// statement but never the values bound to it; an error the flow throws is `500` `internal-error`;
/// only a storage outage is `503` ("retry"). Nothing changes either way.
@Suite struct FlowErrorTests {
    static var binaryPath: String {
        URL(fileURLWithPath: ServerProcess.binaryPath).deletingLastPathComponent().appendingPathComponent("FlowFaultsApp").path
    }

    static func start(database: String) async throws -> ServerProcess {
        try await ServerProcess.start(
            executable: binaryPath, commandLine: ["serve", "--port", "0", "--database", database, "--log-level", "warning"],
            databasePath: database)
    }

    @Test(arguments: Backend.allCases)
    func aStatementTheDatabaseRefusesIs500LoggedWithItsStatementAndChangesNothing(backend: Backend) async throws {
        let server = try await Self.start(database: await backend.newDatabase())
        var client = try await SessionClient.create(port: server.port)
        let secret = "a note whose text never reaches the log"
        try Journey.expect200(try await client.send("add", ["text": "first"]))
        try Journey.expect200(try await client.send("add", ["text": secret]))
        let before = client.stateText

        // The same text again violates the table's UNIQUE constraint: the app's bug, not storage's.
        let repeated = try await client.send("add", ["text": secret])
        ProblemAssertions.expect(repeated, 500, "statement-failed")
        #expect(repeated.headers["retry-after"] == nil)
        let typo = try await client.send("typo")
        ProblemAssertions.expect(typo, 500, "statement-failed")
        let thrown = try await client.send("fail")
        ProblemAssertions.expect(thrown, 500, "internal-error")

        // Nothing changed, and storage is healthy.
        #expect(try await client.refresh().status == 200)
        #expect(client.stateText == before)
        #expect(client.topScreen.props["count"] as? Int == 2)
        #expect(try await TestHTTP.request(port: server.port, "GET", "/healthz").status == 200)
        let metrics = try await TestHTTP.request(port: server.port, "GET", "/metrics").text
        #expect(metrics.contains(#"coordinatord_events_refused_total{reason="statement_failed"} 2"#))

        // Logged with the cause and the statement as written, never the value bound to it.
        #expect(try await server.stop() == 0)
        let log = try String(contentsOfFile: server.logPath, encoding: .utf8)
        let failures = log.split(separator: "\n").filter { $0.contains("request failed") }
        #expect(failures.count == 3, "\(log)")
        #expect(failures.contains { $0.contains("INSERT INTO notes (text) VALUES (?1)") && $0.lowercased().contains("unique") })
        #expect(failures.contains { $0.contains("SELEC count(*) FROM notes") })
        #expect(failures.contains { $0.contains("NotesFailure") })
        #expect(!log.contains(secret))
    }

    /// The database file deleted under the running server: the same flow's write is a storage
    /// failure, `503` `storage-unavailable` with `Retry-After`, and nothing changed.
    @Test func aStorageOutageOnSQLiteIs503() async throws {
        let server = try await Self.start(database: ServerProcess.temporaryDatabasePath())
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("add", ["text": "first"]))
        try FileManager.default.removeItem(atPath: server.databasePath)
        let refused = try await client.send("add", ["text": "second"])
        ProblemAssertions.expect(refused, 503, "storage-unavailable")
        #expect(refused.headers["retry-after"] == "1")
        #expect(client.topScreen.props["count"] as? Int == 1)
        ProblemAssertions.expect(try await TestHTTP.request(port: server.port, "GET", "/healthz"), 503, "storage-unavailable")
        #expect(try await server.stop() == 0)
    }

    /// PostgreSQL stopped under the running server: `503` `storage-unavailable`; once it is back,
    /// the same event applies (nothing was changed by the refused one).
    @Test func aStorageOutageOnPostgreSQLIs503() async throws {
        let cluster = try await TestHTTP.offPool { try PostgresCluster() }
        _ = try await TestHTTP.offPool { try cluster.psql("CREATE DATABASE notes", database: "postgres") }
        let server = try await Self.start(database: cluster.url(database: "notes"))
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("add", ["text": "first"]))
        try await TestHTTP.offPool { try cluster.stop() }
        let refused = try await client.send("add", ["text": "second"])
        ProblemAssertions.expect(refused, 503, "storage-unavailable")
        ProblemAssertions.expect(try await TestHTTP.request(port: server.port, "GET", "/healthz"), 503, "storage-unavailable")
        try await TestHTTP.offPool { try cluster.start() }
        // Each pooled connection reconnects on its next use: until every broken one has been
        // used, an attempt may still be a 503 (which changes nothing, so the retry is the same event).
        var statuses: [Int] = []
        for _ in 0..<8 where statuses.last != 200 {
            statuses.append(try await client.send("add", ["text": "second"]).status)
        }
        #expect(statuses.last == 200)
        #expect(statuses.dropLast().allSatisfy { $0 == 503 }, "\(statuses)")
        #expect(client.topScreen.props["count"] as? Int == 2)
        #expect(try await server.stop() == 0)
        try await TestHTTP.offPool { try cluster.stop(mode: "immediate") }
    }
}
