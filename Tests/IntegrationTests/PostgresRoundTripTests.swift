import Foundation
import PostgresStore
import Synchronization
import TestSupport
import Testing

/// On PostgreSQL an event's own writes (the compare-and-set of the session row, its journal entry)
/// are one statement, its `BEGIN` travels with its first statement, its `COMMIT` with its last once
/// the transaction has begun (with its `BEGIN` too when it is also its first), and the notice to
/// other nodes' streams with its `COMMIT`: a navigation event is one round trip, and folding them
/// keeps every guarantee of the statements they replace.
@Suite struct PostgresRoundTripTests {
    /// The server's count of round trips to PostgreSQL (`/metrics`; preparations counted apart).
    static func roundTrips(_ server: ServerProcess) async throws -> Int {
        Int(try await server.metric("coordinatord_database_round_trips_total") ?? -1)
    }

    /// A navigation event whose flow reads nothing: `BEGIN`, the folded write, `COMMIT` and the
    /// notice in one round trip (before: `BEGIN` and the transaction's id with the write, then
    /// `COMMIT` and the notice; earlier still `BEGIN`, `UPDATE`, journal `INSERT`, `pg_notify`,
    /// `COMMIT`). Test hooks on: no periodic sweep talks to the database meanwhile.
    @Test func aNavigationEventIsOneRoundTrip() async throws {
        let server = try await ServerProcess.start(backend: .postgresql, arguments: ["--test-hooks"])
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        try Journey.expect200(try await client.send("back"))
        let before = try await Self.roundTrips(server)
        #expect(before > 0)
        for event in ["logIn", "back", "logIn", "back"] { try Journey.expect200(try await client.send(event)) }
        #expect(try await Self.roundTrips(server) - before == 4)
        #expect(client.version == 7)
        #expect(try await JournalTests.history(client).map { $0["version"] as? Int ?? 0 } == Array((1...7).reversed()))
    }

    /// A signed-in session's event is one round trip too: the sample app's user check
    /// (`UserTable`) is a condition of the folded write, not a read before it (which was a round
    /// trip of its own, with `BEGIN`).
    @Test func aSignedInNavigationEventIsOneRoundTrip() async throws {
        let server = try await ServerProcess.start(backend: .postgresql, arguments: ["--test-hooks"])
        var client = try await SessionClient.create(port: server.port)
        try await Journey.register(&client, email: "one@example.com", displayName: "One")
        let before = try await Self.roundTrips(server)
        try Journey.expect200(try await client.send("compose"))
        #expect(try await Self.roundTrips(server) - before == 1)
        #expect(client.topScreen.name == "compose")
    }

    /// The event statement names the journal's sequence (`session_journal_id_seq`), and migration 17
    /// gives the sequence that name wherever it has another: a database at migration 16 whose
    /// sequence was named otherwise journals its events once the server migrated it.
    @Test func migration17NamesTheJournalSequenceTheEventStatementDrawsFrom() async throws {
        let url = try await Backend.postgresql.newDatabase()
        var server = try await ServerProcess.start(databasePath: url)
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        _ = try await server.stop()
        _ = try await TestHTTP.offPool {
            try PostgresCluster.shared.psql(
                """
                ALTER SEQUENCE session_journal_id_seq RENAME TO entries_drawn_here;
                ALTER TABLE sessions DROP COLUMN previous_journal_head;
                DELETE FROM schema_migrations WHERE scope = 'core' AND version = 17;
                """, database: url)
        }
        server = try await ServerProcess.start(databasePath: url)
        client = client.moved(to: server.port)
        try Journey.expect200(try await client.send("back"))
        #expect(try await JournalTests.history(client).map { $0["version"] as? Int ?? 0 } == [3, 2, 1])
        let sequence = try await TestHTTP.offPool {
            try PostgresCluster.shared.psql("SELECT pg_get_serial_sequence('session_journal', 'id')", database: url)
        }
        #expect(sequence.trimmingCharacters(in: .whitespacesAndNewlines) == "public.session_journal_id_seq")
    }

    /// Events through one node and replays journaled by another, at the same time, keep one chain:
    /// each replay moves the head without the version, and an event's update that waited for it
    /// chains its entry onto the replay's. Walking the chain from the head (the history) reaches
    /// every entry the table holds for the session.
    @Test func eventsAndReplaysOnTwoNodesKeepOneJournalChain() async throws {
        let nodes = try await MultiNodeTests.nodes(2)
        var onA = try await SessionClient.create(port: nodes[0].port)
        let beforeKey = onA.moved(to: nodes[1].port)
        try Journey.expect200(try await onA.send("signUp", headers: ["Idempotency-Key": "k1"]))
        for round in 0..<8 {
            var replay = beforeKey
            async let replayed = replay.send("signUp", headers: ["Idempotency-Key": "k1"])
            try Journey.expect200(try await onA.send(round % 2 == 0 ? "back" : "signUp"))
            try Journey.expect200(try await replayed)
        }
        let walked = try await JournalTests.history(onA)
        let (id, database) = (onA.id, nodes[0].databasePath)
        let stored = try await TestHTTP.offPool {
            try PostgresCluster.shared.psql("SELECT count(*) FROM session_journal WHERE session_id = '\(id)'", database: database)
        }
        #expect(walked.count == Int(stored.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(walked.filter { $0["replay"] as? Bool == true }.count >= 1)
        #expect(walked.filter { $0["replay"] as? Bool == false }.map { $0["version"] as? Int ?? 0 } == Array((1...10).reversed()))
    }

    /// An event that lost the race to another node (its compare-and-set found a newer version)
    /// writes nothing: no journal entry, and no notice for other nodes' streams, only those of the
    /// events that committed.
    @Test func aLostCompareAndSetWritesNoJournalEntryAndSendsNoNotice() async throws {
        let url = try await Backend.postgresql.newDatabase()
        let (listener, notices) = try await HeardNotices.listening(to: url)
        defer { listener.stop() }
        let nodes = try await MultiNodeTests.nodes(2, database: url)
        var onA = try await SessionClient.create(port: nodes[0].port)
        // A stream on node B: the session is leased, so its commits are noticed.
        let laptop = try await LiveStreamTests.open(onA, port: nodes[1].port)
        defer { laptop.disconnect() }
        try Journey.expect200(try await onA.send("logIn"))  // version 2 on node A: its copy has `login` on top
        var onB = onA.moved(to: nodes[1].port)
        try Journey.expect200(try await onB.send("back"))  // version 3 through node B
        // Node A's copy still has `login` on top: it applies `back` over version 2, its write finds
        // version 3 stored and changes nothing; reloaded, `login` is not on top any more.
        let stale = try await onA.send("back")
        #expect(stale.status == 409, "\(stale.text)")
        // A later event's notice arrives after any an earlier commit sent (one connection, commit order).
        try Journey.expect200(try await onB.send("logIn"))  // version 4
        let last = "c:4:\(onA.id)"
        try await waitUntil("the notice of version 4") { notices.all.contains(last) }
        let committed = notices.all.filter { $0.hasSuffix(":\(onA.id)") }
        #expect(committed == ["c:2:\(onA.id)", "c:3:\(onA.id)", last])
        let entries = try await JournalTests.history(onB)
        #expect(entries.map { $0["version"] as? Int ?? 0 } == [4, 3, 2, 1])
        #expect(entries.map { $0["event"] as? String ?? "" } == ["logIn", "back", "logIn", "(start)"])
    }

    /// An event with an `Idempotency-Key` looks for a stored answer once (one round trip), then is
    /// a navigation event's one: its answer is stored by the folded write. Before, it looked twice
    /// and stored its answer in two more statements before `COMMIT` (6 round trips). A retry that
    /// replays the answer checks the stored version, reads the answer and journals the replay
    /// (reads the journal's head and replays, appends the entry, stores the new head).
    @Test func aKeyedEventLooksForItsStoredAnswerOnce() async throws {
        let server = try await ServerProcess.start(backend: .postgresql, arguments: ["--test-hooks"])
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn", headers: ["Idempotency-Key": "warm-1"]))
        try Journey.expect200(try await client.send("back", headers: ["Idempotency-Key": "warm-2"]))
        let before = try await Self.roundTrips(server)
        let retry = client
        try Journey.expect200(try await client.send("logIn", headers: ["Idempotency-Key": "k-1"]))
        let first = try await Self.roundTrips(server) - before
        #expect(first == 1 + 1)
        var again = retry
        let replayed = try await again.send("logIn", headers: ["Idempotency-Key": "k-1"])
        try Journey.expect200(replayed)
        #expect(again.version == client.version)
        let second = try await Self.roundTrips(server) - before
        #expect(second == 1 + 1 + 5)
    }

    /// The server closed the pool's connections while they were idle (an administrator,
    /// `idle_session_timeout`, a proxy): the next events are answered as if nothing happened, each
    /// applied once. Before, each event met one closed connection, retried on the next one it was
    /// handed, met another, and got `503`.
    @Test func connectionsClosedWhileIdleAreReplacedBeforeAnEventIsSent() async throws {
        let url = try await Backend.postgresql.newDatabase()
        let server = try await ServerProcess.start(databasePath: url, arguments: ["--test-hooks"])
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        for round in 0..<3 {
            let terminated = try await TestHTTP.offPool {
                try PostgresCluster.shared.psql(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = "
                        + "'\(PostgresCluster.databaseName(in: url))' AND application_name = 'coordinatord'",
                    database: "postgres")
            }
            #expect((Int(terminated.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 1, "round \(round)")
            // Signalled, not yet gone: the test waits until their sockets are closed.
            try await waitUntil("the terminated backends are gone") {
                let left = try await TestHTTP.offPool {
                    try PostgresCluster.shared.psql(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                            + "'\(PostgresCluster.databaseName(in: url))' AND application_name = 'coordinatord'",
                        database: "postgres")
                }
                return left.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
            }
            let version = client.version
            for event in ["back", "logIn"] {
                let response = try await client.send(event)
                #expect(response.status == 200, "\(event), round \(round): \(server.log.suffix(1500))")
            }
            #expect(client.version == version + 2)
        }
        var fresh = client
        #expect(try await fresh.refresh().status == 200)
        #expect(fresh.version == client.version)
    }
}
