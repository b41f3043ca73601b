import Foundation
import TestSupport
import Testing

/// Live streams across nodes on one PostgreSQL database: a commit on one node reaches the streams
/// of the others (NOTIFY in the commit's transaction), and no version is lost when a node dies or
/// loses its listening connection.
@Suite struct MultiNodeLiveTests {
    @Test func aCommitOnOneNodeReachesTheStreamsOfAnother() async throws {
        let nodes = try await MultiNodeTests.nodes(2)
        var phone = try await SessionClient.create(port: nodes[0].port)
        let laptop = try await LiveStreamTests.open(phone, port: nodes[1].port)
        LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone)
        for step in 0..<5 {
            try Journey.expect200(try await phone.send(ConcurrencyTests.nextEvent(for: phone)))
            LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone, "step \(step)")
        }
        // A sign-in on node 0 ends node 1's stream of the old token, with the reason.
        try await Journey.register(&phone, email: "nodes@example.com", displayName: "Nodes")
        var last: SSEFrame?
        while let frame = try await LiveStreamTests.next(laptop) { last = frame }
        #expect(last?.event == "ended")
        #expect(last?.json["reason"] as? String == "token-rotated")
    }

    /// `kill -9` of the node holding a stream: the client reconnects to the other node naming
    /// the last version it saw and gets exactly the State it missed.
    /// A commit whose notice never arrives (here: a version stored behind the node's back, with
    /// no NOTIFY at all) still reaches the node's streams: each heartbeat compares the stored
    /// versions of the sessions streamed here with what their streams got.
    @Test func aStreamConvergesOnTheStoredVersionWithoutANotice() async throws {
        let server = try await ServerProcess.start(backend: .postgresql, arguments: ["--stream-heartbeat", "1"])
        let phone = try await SessionClient.create(port: server.port)
        let laptop = try await LiveStreamTests.open(phone)
        LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone)
        let stored = try StoredData.open(server.databasePath)
        #expect(try stored.run("UPDATE sessions SET version = version + 1 WHERE id = ?1", [.text(phone.id)]) == 1)
        let frame = try await LiveStreamTests.next(laptop)
        #expect(frame?.id == phone.version + 1)
    }

    @Test func aStreamMovedOffAKilledNodeLosesNoVersion() async throws {
        let nodes = try await MultiNodeTests.nodes(2)
        var phone = try await SessionClient.create(port: nodes[0].port)
        let onVictim = try await LiveStreamTests.open(phone, port: nodes[1].port)
        let seen = try await LiveStreamTests.next(onVictim)
        LiveStreamTests.expectState(seen, equals: phone)
        try await nodes[1].stop(signal: SIGKILL)
        #expect(try await TestHTTP.offPool { try? onVictim.next() } == nil, "the killed node's stream is gone")
        for _ in 0..<3 { try Journey.expect200(try await phone.send(ConcurrencyTests.nextEvent(for: phone))) }
        let moved = try await LiveStreamTests.open(phone, port: nodes[0].port, lastEventID: seen?.id)
        LiveStreamTests.expectState(try await LiveStreamTests.next(moved), equals: phone, "the missed state in one frame")
        try Journey.expect200(try await phone.send(ConcurrencyTests.nextEvent(for: phone)))
        LiveStreamTests.expectState(try await LiveStreamTests.next(moved), equals: phone)
    }

    /// The listening connection breaks while a commit happens elsewhere: the stream says so, and
    /// once the node listens again it catches up with the commit it was never told about.
    @Test func aNodeThatLosesItsListeningConnectionSaysSoAndCatchesUp() async throws {
        let url = try await Backend.postgresql.newDatabase()
        let database = PostgresCluster.databaseName(in: url)
        let nodes = try await MultiNodeTests.nodes(2, database: url)
        var phone = try await SessionClient.create(port: nodes[0].port)
        let laptop = try await LiveStreamTests.open(phone, port: nodes[1].port)
        LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone)
        // No new connection to the database until released: the listeners cannot come back.
        _ = try await TestHTTP.offPool {
            _ = try PostgresCluster.shared.psql("ALTER DATABASE \(database) ALLOW_CONNECTIONS false", database: "postgres")
            return try PostgresCluster.shared.psql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' "
                    + "AND application_name = 'coordinatord-listener'", database: "postgres")
        }
        let lost = try await LiveStreamTests.next(laptop)
        #expect(lost?.event == "status")
        #expect(lost?.json["connected"] as? Bool == false)
        // Committed through node 0's open pool connection; nobody is told.
        try Journey.expect200(try await phone.send(ConcurrencyTests.nextEvent(for: phone)))
        _ = try await TestHTTP.offPool {
            try PostgresCluster.shared.psql("ALTER DATABASE \(database) ALLOW_CONNECTIONS true", database: "postgres")
        }
        let back = try await LiveStreamTests.next(laptop)
        #expect(back?.event == "status")
        #expect(back?.json["connected"] as? Bool == true)
        LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone, "the catch-up read")
        try Journey.expect200(try await phone.send(ConcurrencyTests.nextEvent(for: phone)))
        LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone, "and notices again")
    }

    /// A commit is told to the other nodes only while one of them streams its session (holds its
    /// lease): a session nobody streams costs no notice, and a streamed one still gets each commit.
    @Test func onlyCommitsOfStreamedSessionsAreNoticed() async throws {
        let nodes = try await MultiNodeTests.nodes(2)
        var phone = try await SessionClient.create(port: nodes[0].port)
        let laptop = try await LiveStreamTests.open(phone, port: nodes[1].port)
        LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone)
        // Node 1 listens: the streamed session's commit reaches it.
        try Journey.expect200(try await phone.send(ConcurrencyTests.nextEvent(for: phone)))
        LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone)
        var unwatched = try await SessionClient.create(port: nodes[0].port)
        for _ in 0..<3 { try Journey.expect200(try await unwatched.send(ConcurrencyTests.nextEvent(for: unwatched))) }
        try Journey.expect200(try await phone.send(ConcurrencyTests.nextEvent(for: phone)))
        LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone)
        // Notices arrive in commit order, so any for the unwatched session came before the last one.
        #expect(try await nodes[1].metric("coordinatord_live_notices_received_total") == 2)
    }

    /// A lease lasts ten minutes and is renewed while its stream stays open, so commits keep
    /// reaching the stream however long it lasts; once the stream is gone the sweep deletes it.
    @Test func aStreamOutlivesItsLeaseAndTheSweepDeletesTheLeaseAfterIt() async throws {
        let url = try await Backend.postgresql.newDatabase()
        let database = PostgresCluster.databaseName(in: url)
        let nodes = try await MultiNodeTests.nodes(2, database: url, arguments: ["--test-hooks"])
        var phone = try await SessionClient.create(port: nodes[0].port)
        let laptop = try await LiveStreamTests.open(phone, port: nodes[1].port)
        LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone)
        for round in 0..<3 {
            // Past the renewal point each round; three rounds are twice the lease's length.
            for node in nodes { try await node.advanceClock(seconds: 400) }
            try await nodes[1].sweep()
            try Journey.expect200(try await phone.send(ConcurrencyTests.nextEvent(for: phone)))
            LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone, "round \(round)")
        }
        #expect(try await Self.leases(database) == 1)
        laptop.disconnect()
        for node in nodes { try await node.advanceClock(seconds: 1_300) }
        try await nodes[0].sweep()
        #expect(try await Self.leases(database) == 0)
    }

    /// A stream refused for its token (a wrong one, another session's) takes no lease: a
    /// request that does not authenticate writes nothing.
    @Test func aRefusedStreamTakesNoLease() async throws {
        let url = try await Backend.postgresql.newDatabase()
        let database = PostgresCluster.databaseName(in: url)
        let node = try await ServerProcess.start(databasePath: url)
        let phone = try await SessionClient.create(port: node.port)
        let other = try await SessionClient.create(port: node.port)
        for (token, status) in [("wrong", 401), (other.token, 404)] {
            let refused = try await LiveStreamTests.open(phone, token: token)
            #expect(refused.status == status)
        }
        #expect(try await Self.leases(database) == 0)
        let laptop = try await LiveStreamTests.open(phone)
        LiveStreamTests.expectState(try await LiveStreamTests.next(laptop), equals: phone)
        #expect(try await Self.leases(database) == 1)
    }

    /// Rows of `live_watches` in `database`.
    static func leases(_ database: String) async throws -> Int {
        try await TestHTTP.offPool {
            let count = try PostgresCluster.shared.psql("SELECT count(*) FROM live_watches", database: database)
            return Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
    }
}
