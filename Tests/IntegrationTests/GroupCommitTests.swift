import Foundation
import PostgresStore
import Synchronization
import TestSupport
import Testing

/// PostgreSQL's group commit across sessions: navigation events of several sessions that wait at
/// the same time go in one transaction, one round trip (`BEGIN`, one statement each, `COMMIT`, their
/// notices), and each is still applied or refused alone. The test hooks hold the group commit, so
/// that the events of a test wait together whatever the machine's speed, then release them as one group.
@Suite struct GroupCommitTests {
    /// Holds the group commit of the server at `port`, runs `send` (which posts events that wait),
    /// waits until `count` writes wait, and releases them as one group.
    static func inOneGroup<T: Sendable>(
        port: UInt16, waiting count: Int, _ send: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        #expect(try await TestHTTP.request(port: port, "POST", "/test/group-commits/hold").status == 204)
        let sent = Task { try await send() }
        try await waitUntil("\(count) writes wait for a group") {
            let answer = try await TestHTTP.request(port: port, "GET", "/test/group-commits")
            let body = try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any]
            return body?["waiting"] as? Int == count
        }
        #expect(try await TestHTTP.request(port: port, "POST", "/test/group-commits/release").status == 204)
        return try await sent.value
    }

    /// The group commits and the writes they held so far (`/metrics`).
    static func grouped(_ port: UInt16) async throws -> (groups: Int, writes: Int) {
        let text = try await TestHTTP.request(port: port, "GET", "/metrics").text
        func value(_ name: String) -> Int { Int(ServerProcess.metric(name, in: text) ?? -1) }
        return (value("coordinatord_database_group_commits_total"), value("coordinatord_database_grouped_writes_total"))
    }

    /// The events of `client`'s session's history, newest first.
    static func events(_ client: SessionClient) async throws -> [String] {
        try await JournalTests.history(client).map { $0["event"] as? String ?? "" }
    }

    /// Sends `event` as each of `clients` at once; their answers, in order.
    static func sendAll(_ event: String, as clients: [SessionClient]) async throws -> [(TestResponse, SessionClient)] {
        try await withThrowingTaskGroup(of: (Int, TestResponse, SessionClient).self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    var client = client
                    return (index, try await client.send(event), client)
                }
            }
            var answers: [(Int, TestResponse, SessionClient)] = []
            for try await answer in group { answers.append(answer) }
            return answers.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
        }
    }

    /// Five sessions' events in one group: one round trip for the five, each applied and journaled.
    @Test func eventsOfSeveralSessionsCommitInOneRoundTrip() async throws {
        let server = try await ServerProcess.start(backend: .postgresql, arguments: ["--test-hooks"])
        var clients: [SessionClient] = []
        for _ in 0..<5 {
            var client = try await SessionClient.create(port: server.port)
            try Journey.expect200(try await client.send("logIn"))
            clients.append(client)
        }
        let roundTrips = try await PostgresRoundTripTests.roundTrips(server)
        let grouped = try await Self.grouped(server.port)
        let sent = clients
        let answers = try await Self.inOneGroup(port: server.port, waiting: 5) { try await Self.sendAll("back", as: sent) }
        #expect(try await PostgresRoundTripTests.roundTrips(server) - roundTrips == 1)
        let after = try await Self.grouped(server.port)
        #expect(after.groups - grouped.groups == 1)
        #expect(after.writes - grouped.writes == 5)
        for (answer, client) in answers {
            #expect(answer.status == 200, "\(answer.text)")
            #expect(client.version == 3)
            #expect(try await Self.events(client) == ["back", "logIn", "(start)"])
        }
    }

    /// In one group, an event whose session another node moved on is refused (`409`, no journal
    /// entry, no notice to other nodes) while the others are applied, and noticed to the node that
    /// streams them.
    @Test func anEventRefusedInAGroupLeavesTheOthersAppliedAndSendsNoNotice() async throws {
        let url = try await Backend.postgresql.newDatabase()
        let (listener, notices) = try await HeardNotices.listening(to: url)
        defer { listener.stop() }
        let nodes = try await MultiNodeTests.nodes(2, database: url, arguments: ["--test-hooks"])
        var stale = try await SessionClient.create(port: nodes[0].port)
        var fresh = try await SessionClient.create(port: nodes[0].port)
        // Streams on node B: both sessions are leased, so their commits are noticed.
        let streams = [
            try await LiveStreamTests.open(stale, port: nodes[1].port), try await LiveStreamTests.open(fresh, port: nodes[1].port),
        ]
        defer { for stream in streams { stream.disconnect() } }
        try Journey.expect200(try await stale.send("logIn"))  // version 2 on node A: its copy has `login` on top
        try Journey.expect200(try await fresh.send("logIn"))
        var onB = stale.moved(to: nodes[1].port)
        try Journey.expect200(try await onB.send("back"))  // version 3 through node B: node A's copy is stale
        let sent = [stale, fresh]
        let answers = try await Self.inOneGroup(port: nodes[0].port, waiting: 2) {
            try await Self.sendAll("back", as: sent)
        }
        // Node A's `back` over version 2 found version 3 stored; reloaded, `login` is not on top any more.
        #expect(answers[0].0.status == 409, "\(answers[0].0.text)")
        #expect(answers[1].0.status == 200, "\(answers[1].0.text)")
        fresh = answers[1].1
        #expect(fresh.version == 3)
        try await waitUntil("the notice of the applied event") { notices.all.contains("c:3:\(fresh.id)") }
        // A later event's notice comes after any of the group's (one listener, commit order).
        try Journey.expect200(try await onB.send("logIn"))  // version 4
        try await waitUntil("the notice of version 4") { notices.all.contains("c:4:\(stale.id)") }
        let staleNotices = notices.all.filter { $0.hasSuffix(":\(stale.id)") }
        #expect(staleNotices == ["c:2:\(stale.id)", "c:3:\(stale.id)", "c:4:\(stale.id)"])
        #expect(try await Self.events(onB) == ["logIn", "back", "logIn", "(start)"])
        #expect(try await Self.events(fresh) == ["back", "logIn", "(start)"])
        stale = onB
        #expect(stale.version == 4)
    }

    /// The connection cut at a group's `COMMIT`: PostgreSQL committed and the answer was lost
    /// (each write's token is found in its row), or it never got the `COMMIT` (each event is sent
    /// again, alone). Either way every event of the group is answered `200` and applied once.
    @Test(arguments: [CommitCutter.Cut.afterCommit, .beforeCommit])
    func aGroupCutAtItsCommitAppliesEachEventOnce(cut: CommitCutter.Cut) async throws {
        let (server, cutter) = try await CommitFailureTests.server()
        defer { cutter.stop() }
        var clients: [SessionClient] = []
        for _ in 0..<3 {
            var client = try await SessionClient.create(port: server.port)
            try Journey.expect200(try await client.send("logIn"))
            clients.append(client)
        }
        let sent = clients
        let answers = try await Self.inOneGroup(port: server.port, waiting: 3) {
            cutter.arm(cut)
            return try await Self.sendAll("back", as: sent)
        }
        #expect(cutter.cuts == 1)
        for (answer, client) in answers {
            #expect(answer.status == 200, "\(answer.text)")
            #expect(client.version == 3)
            var read = client
            #expect(try await read.refresh().status == 200)
            #expect(read.version == 3)
            #expect(try await Self.events(client) == ["back", "logIn", "(start)"])
            var next = client
            #expect(try await next.send("logIn").status == 200)
            #expect(next.version == 4)
        }
    }
}
