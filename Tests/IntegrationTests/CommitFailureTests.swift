import Foundation
import TestSupport
import Testing

/// PostgreSQL's connection lost during `COMMIT`: whether the event committed is not known from the
/// lost answer. The server finds out (on another connection) instead of answering `503` ("nothing
/// was changed") for an event that did commit, and runs an event that did not commit once more.
///
/// A navigation event (`logIn`, `back`) is one round trip, `BEGIN`, its write and `COMMIT`
/// together: the server tells by the token its write stored. An event whose flow ran a statement
/// first (`submit`) knows its transaction's id before `COMMIT`: the server asks `txid_status`.
@Suite struct CommitFailureTests {
    /// The PostgreSQL connections `server`'s pool holds open.
    static func openConnections(_ server: ServerProcess) async throws -> Int {
        Int(try await server.metric("coordinatord_database_connections") ?? -1)
    }

    /// A server on a new database, through a `CommitCutter` in front of the shared cluster; test
    /// hooks on, so no periodic sweep commits anything but the test's events.
    static func server(hidingServerProcess: Bool = false) async throws -> (ServerProcess, CommitCutter) {
        let url = try await Backend.postgresql.newDatabase()
        let cluster = try await TestHTTP.offPool { try PostgresCluster.shared }
        let cutter = try CommitCutter(target: cluster.port, hidesServerProcess: hidingServerProcess)
        let server = try await ServerProcess.start(
            databasePath: cluster.url(database: PostgresCluster.databaseName(in: url), through: cutter.port),
            arguments: ["--test-hooks"])
        return (server, cutter)
    }

    /// The connection cut at the event's `COMMIT`, each way `cut` says: the event is answered
    /// `200`, applied once.
    /// - `.afterCommit`: PostgreSQL committed and its answer was lost; the server finds the write's
    ///   token in the row.
    /// - `.beforeCommit`: PostgreSQL never got the `COMMIT`; the event runs once more.
    /// - `.beforeCommitUnheard`: the same, and PostgreSQL never heard the connection end (a
    ///   partition), so its transaction would hold the session's row until its process ended: the
    ///   server ends that process first (without it, 5 s of "in progress", then `503`, and the
    ///   session's next event waited on the lock).
    @Test(arguments: [CommitCutter.Cut.afterCommit, .beforeCommit, .beforeCommitUnheard])
    func anEventCutAtItsCommitIs200AndAppliedOnce(cut: CommitCutter.Cut) async throws {
        let (server, cutter) = try await Self.server()
        defer { cutter.stop() }
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        cutter.arm(cut)
        let answer = try await client.send("back")
        #expect(cutter.cuts == 1)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(client.version == 3)
        var read = client
        #expect(try await read.refresh().status == 200)
        #expect(read.version == 3)
        #expect(read.state as NSDictionary == client.state as NSDictionary)
        #expect(try await client.send("logIn").status == 200)
        #expect(client.version == 4)
    }

    /// Behind a pooler (PgBouncer, say) the server process libpq names is not the one that runs
    /// the statements, so it cannot be ended and waited for: a navigation event then learns its
    /// transaction's id before `COMMIT` (two round trips), and a lost answer is told by `txid_status`.
    @Test(arguments: [CommitCutter.Cut.afterCommit, .beforeCommit])
    func behindAPoolerALostAnswerIsToldByTheTransactionsId(cut: CommitCutter.Cut) async throws {
        let (server, cutter) = try await Self.server(hidingServerProcess: true)
        defer { cutter.stop() }
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        let before = try await PostgresRoundTripTests.roundTrips(server)
        try Journey.expect200(try await client.send("back"))
        let afterBack = try await PostgresRoundTripTests.roundTrips(server)
        #expect(afterBack - before == 2, "round trips: \(afterBack - before); \(server.log.suffix(3000))")
        // One client's events, one after another, need one connection: an event is answered by
        // the group commit only once the group's connection is free again (before, the write it
        // then sends alone raced the group for it, and opened a second one: a round trip more).
        #expect(try await Self.openConnections(server) == 1)
        cutter.arm(cut)
        let answer = try await client.send("logIn")
        #expect(cutter.cuts == 1)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(client.version == 4)
        var read = client
        #expect(try await read.refresh().status == 200)
        #expect(read.version == 4)
        #expect(read.state as NSDictionary == client.state as NSDictionary)
    }

    /// PostgreSQL never got the `COMMIT`, on the event's first connection nor on the one it ran
    /// again on: `503`, and nothing changed.
    @Test func anEventWhoseCommitNeverArrivedTwiceIs503AndChangesNothing() async throws {
        let (server, cutter) = try await Self.server()
        defer { cutter.stop() }
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        let before = try await client.get("")
        cutter.arm(.beforeCommit, times: 2)
        let answer = try await client.send("back")
        #expect(cutter.cuts == 2)
        #expect(answer.status == 503, "\(answer.text)")
        let read = try await client.get("")
        #expect(read.headers["etag"] == before.headers["etag"])
        #expect(read.text == before.text)
        #expect(try await client.send("back").status == 200)
    }

    /// An event whose flow ran a statement first (`submit` stores the post) sends its `COMMIT` with
    /// its last statement, in one round trip; its transaction's id came with its first statement,
    /// so the server asks `txid_status`. Cut each way: `200`, and its post is stored once.
    @Test(arguments: [CommitCutter.Cut.afterCommit, .beforeCommit, .beforeCommitUnheard])
    func anEventWhosePipelinedCommitIsCutIs200AndAppliedOnce(cut: CommitCutter.Cut) async throws {
        let (server, cutter) = try await Self.server()
        defer { cutter.stop() }
        var client = try await SessionClient.create(port: server.port)
        try await Journey.register(&client, email: "cut@example.com", displayName: "Cut")
        try Journey.expect200(try await client.send("compose"))
        let version = client.version
        cutter.arm(cut)
        let answer = try await client.send("submit", ["text": "Cut at its commit"])
        #expect(cutter.cuts == 1)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(client.version == version + 1)
        var read = client
        #expect(try await read.refresh().status == 200)
        #expect(read.version == version + 1)
        #expect(read.state as NSDictionary == client.state as NSDictionary)
        let posts = client.topScreen.props["posts"] as? [[String: Any]] ?? []
        #expect(posts.filter { $0["text"] as? String == "Cut at its commit" }.count == 1)
        let next = try await client.send("compose")
        #expect(next.status == 200, "\(next.text)")
    }

    /// The same, cut on both connections: `503`, and nothing changed (no post).
    @Test func anEventWhosePipelinedCommitNeverArrivedTwiceIs503AndChangesNothing() async throws {
        let (server, cutter) = try await Self.server()
        defer { cutter.stop() }
        var client = try await SessionClient.create(port: server.port)
        try await Journey.register(&client, email: "before@example.com", displayName: "Before")
        try Journey.expect200(try await client.send("compose"))
        let before = try await client.get("")
        cutter.arm(.beforeCommit, times: 2)
        let answer = try await client.send("submit", ["text": "Cut before its commit"])
        #expect(cutter.cuts == 2)
        #expect(answer.status == 503, "\(answer.text)")
        let read = try await client.get("")
        #expect(read.headers["etag"] == before.headers["etag"])
        #expect(read.text == before.text)
        try Journey.expect200(try await client.send("submit", ["text": "Cut before its commit"]))
        let posts = client.topScreen.props["posts"] as? [[String: Any]] ?? []
        #expect(posts.filter { $0["text"] as? String == "Cut before its commit" }.count == 1)
    }
}
