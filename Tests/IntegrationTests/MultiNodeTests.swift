import Foundation
import Store
import Synchronization
import TestSupport
import Testing

/// Several nodes on one PostgreSQL database: any node serves any session, correctly.
@Suite struct MultiNodeTests {
    /// `count` servers on one new database of the shared cluster.
    static func nodes(_ count: Int, database: String? = nil, arguments: [String] = []) async throws -> [ServerProcess] {
        var url = database
        if url == nil { url = try await Backend.postgresql.newDatabase() }
        var nodes: [ServerProcess] = []
        for _ in 0..<count { nodes.append(try await ServerProcess.start(databasePath: url, arguments: arguments)) }
        return nodes
    }

    static func send(_ event: String, as client: SessionClient) async throws -> TestResponse {
        var client = client
        return try await client.send(event)
    }

    /// Every event goes to the next node; after each, every node reads the very state it answered.
    @Test func aJourneyHopsBetweenNodes() async throws {
        let nodes = try await Self.nodes(3)
        var client = try await SessionClient.create(port: nodes[0].port)
        var hop = 0
        func step(_ event: String, _ payload: [String: Any]? = nil) async throws {
            hop += 1
            client = client.moved(to: nodes[hop % nodes.count].port)
            try Journey.expect200(try await client.send(event, payload))
            for node in nodes {
                let read = try await client.moved(to: node.port).get("")
                #expect(read.status == 200)
                #expect(read.headers["etag"] == "\"\(client.version)\"", "node \(node.port) after \(event)")
                #expect(SessionClient.parse(read.text) as NSDictionary == client.state as NSDictionary)
            }
        }
        try await step("signUp")
        try await step("next", ["email": "hop@example.com"])
        try await step("next", ["password": Journey.password])
        try await step("finish", ["displayName": "Hopper"])
        #expect(client.topScreen.name == "timeline")
        try await step("compose")
        try await step("submit", ["text": "Written across nodes"])
        #expect((client.topScreen.props["posts"] as? [[String: Any]])?.first?["text"] as? String == "Written across nodes")
        try await step("selectTab", ["tab": "profile"])
        try await step("openSettings")
        let rotatedAway = client.token
        try await step("signOut")
        #expect(client.topScreen.name == "firstRun")
        // The token the sign-out rotated away is dead on every node, also on those that cached it.
        for node in nodes {
            let stale = SessionClient(port: node.port, id: client.id, token: rotatedAway, stateText: client.stateText)
            #expect(try await stale.get("").status == 401)
        }
        try await step("logIn")
        try await step("submit", ["email": "hop@example.com", "password": Journey.password])
        #expect(client.topScreen.name == "timeline")
        #expect(client.version == 12)  // created at 1, then eleven events
    }

    /// Two nodes get a tap on the same screen at once, round after round: exactly one applies it,
    /// the other answers 409 with the winner's state; no version is skipped or written twice.
    @Test func twoNodesRacingOnOneSessionNeverBothWin() async throws {
        let nodes = try await Self.nodes(2)
        var client = try await SessionClient.create(port: nodes[0].port)
        let rounds = 30
        for round in 0..<rounds {
            let event = ConcurrencyTests.nextEvent(for: client)
            let (a, b) = (client.moved(to: nodes[0].port), client.moved(to: nodes[1].port))
            async let first = Self.send(event, as: a)
            async let second = Self.send(event, as: b)
            let answers = try await [first, second]
            #expect(answers.map(\.status).sorted() == [200, 409], "round \(round)")
            let winner = try #require(answers.first { $0.status == 200 })
            let loser = try #require(answers.first { $0.status == 409 })
            ProblemAssertions.expect(loser, 409, "stale-screen")
            #expect(winner.json["version"] as? Int == round + 2)
            let loserState = try #require(loser.json["state"] as? [String: Any])
            #expect(loserState as NSDictionary == winner.json as NSDictionary, "round \(round): 409 carries the winner's state")
            client.absorb(winner)
        }
        let stored = try await client.moved(to: nodes[1].port).get("")
        #expect(stored.json["version"] as? Int == rounds + 1)
    }

    /// Nine racers on one session through three nodes: a racer that lost to other nodes' events
    /// gets a `409` with the current State, never `503` (nothing is wrong with storage).
    @Test func nineRacersAcrossNodesGet200Or409NeverA503() async throws {
        let nodes = try await Self.nodes(3)
        var session = try await SessionClient.create(port: nodes[0].port)
        try await Journey.register(&session, email: "racers@example.com", displayName: "Racer")
        let answers = try await ConcurrencyTests.race(session, ports: nodes.map(\.port), racers: 9, rounds: 8) { _ in "refresh" }
        ConcurrencyTests.checkRace(answers, startingAt: session.version)
        // Every node reads the version the last `200` gave.
        let last = answers.compactMap { $0.json["version"] as? Int }.max() ?? session.version
        for node in nodes {
            let read = try await session.moved(to: node.port).get("")
            #expect(read.headers["etag"] == "\"\(last)\"")
        }
    }

    /// One e-mail registered through three nodes at once: exactly one session gets it.
    @Test func aRegistrationRaceAcrossNodesHasOneWinner() async throws {
        let nodes = try await Self.nodes(3)
        var clients: [SessionClient] = []
        for node in nodes {
            var client = try await SessionClient.create(port: node.port)
            try Journey.expect200(try await client.send("signUp"))
            try Journey.expect200(try await client.send("next", ["email": "race@example.com"]))
            try Journey.expect200(try await client.send("next", ["password": Journey.password]))
            clients.append(client)
        }
        let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for client in clients {
                group.addTask {
                    var client = client
                    return try await client.send("finish", ["displayName": "Racer"])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.map(\.status) == [200, 200, 200])
        let signedIn = answers.filter { !($0.json["user"] is NSNull) }
        #expect(signedIn.count == 1)
        let errors = answers.compactMap { answer -> String? in
            let state = SessionClient(port: 0, id: "", token: "", stateText: answer.text)
            return state.topScreen.props["error"] as? String
        }
        #expect(errors == ["This e-mail is already registered.", "This e-mail is already registered."])
        let stored = try StoredData.open(nodes[0].databasePath).queryFirst("SELECT count(*) FROM users") { $0.int(0) }
        #expect(stored == 1)
    }

    /// Failed sign-ins through one node slow down the next try through another: the counts are
    /// the database's, not a node's. (Test hooks stop both nodes' clocks, which started at most a
    /// second or two apart.)
    @Test func theSignInThrottleHoldsAcrossNodes() async throws {
        let nodes = try await Self.nodes(2, arguments: ["--test-hooks"])
        var owner = try await SessionClient.create(port: nodes[0].port)
        try await Journey.register(&owner, email: "guarded@example.com", displayName: "Guarded")
        var attacker = try await SessionClient.create(port: nodes[0].port)
        try Journey.expect200(try await attacker.send("logIn"))
        var statuses: [Int] = []
        for attempt in 0..<12 {
            attacker = attacker.moved(to: nodes[attempt % 2].port)
            statuses.append(try await attacker.send("submit", ["email": "guarded@example.com", "password": "not the password at all"]).status)
        }
        // Counted per node, each node would let three failures through and then some; counted
        // together, the delays after the third failure soon outgrow the clocks' difference.
        #expect(Array(statuses.prefix(3)) == [200, 200, 200])
        #expect(statuses.filter { $0 == 200 }.count <= 5)
        #expect(Array(statuses.suffix(2)) == [429, 429])
    }

    /// `kill -9` of one node under load: no acknowledged event is lost, and its sessions go on
    /// through the other nodes.
    @Test func killingANodeUnderLoadLosesNothingAndItsSessionsGoOn() async throws {
        let nodes = try await Self.nodes(3)
        var clients: [SessionClient] = []
        for index in 0..<12 { clients.append(try await SessionClient.create(port: nodes[index % 3].port)) }
        let acknowledged = CrashTests.Acknowledgements()
        for client in clients { acknowledged.record(client) }
        try await Self.killRound(nodes, victim: 0, clients: &clients, acknowledged: acknowledged, events: 300, round: 0)
        #expect(acknowledged.count.load(ordering: .relaxed) >= 100)
    }

    /// The same, round after round with every core kept busy by another process (issue 19 item 14:
    /// once in 21 runs on a loaded machine a session's next event was refused). Each round kills
    /// another node at a random point of the load and starts it again afterwards (12 rounds here;
    /// 100 rounds passed when the fix was made).
    /// `NODE_KILL_ROUNDS=200 swift test --filter MultiNodeTests` runs longer.
    @Test func killingNodesRoundAfterRoundOnABusyMachineRefusesNoValidEvent() async throws {
        let hog = try CPUHog()
        defer { hog.stop() }
        let database = try await Backend.postgresql.newDatabase()
        var nodes = try await Self.nodes(3, database: database)
        var clients: [SessionClient] = []
        for index in 0..<12 { clients.append(try await SessionClient.create(port: nodes[index % 3].port)) }
        let acknowledged = CrashTests.Acknowledgements()
        for client in clients { acknowledged.record(client) }
        var random = SplitMix64(state: 14)
        let rounds = Int(ProcessInfo.processInfo.environment["NODE_KILL_ROUNDS"] ?? "") ?? 12
        for round in 0..<rounds {
            let victim = round % nodes.count
            try await Self.killRound(
                nodes, victim: victim, clients: &clients, acknowledged: acknowledged,
                events: Int.random(in: 20...200, using: &random), round: round)
            nodes[victim] = try await ServerProcess.start(databasePath: database)
        }
        #expect(acknowledged.count.load(ordering: .relaxed) > rounds * clients.count)
    }

    /// The cause of that refusal, made to happen every time: a node dies while PostgreSQL still
    /// works on the `COMMIT` of its last event (held up here by a deferred trigger; on a busy
    /// machine, by the scheduler). The commit lands after the node died, so a state read through
    /// another node before it lands is overtaken, and a tap chosen from it is a stale `409`. Once
    /// PostgreSQL has ended the dead node's transactions, what a surviving node reads is final.
    @Test func anEventCommittedAfterItsNodeDiedIsWaitedForBeforeItsSessionGoesOn() async throws {
        let nodes = try await Self.nodes(2)
        var client = try await SessionClient.create(port: nodes[0].port)
        try Journey.expect200(try await client.send(ConcurrencyTests.nextEvent(for: client)))
        let database = nodes[0].databasePath
        // The trigger waits for an advisory lock this test holds, so the first node's COMMIT is
        // under way for as long as the test needs, however slow the machine (no sleep to outlast).
        let holder = try await TestHTTP.offPool { UncheckedConnection(try StoredData.open(database)) }
        try await TestHTTP.offPool {
            try holder.connection.execute(
                """
                CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_advisory_lock(4242); PERFORM pg_advisory_unlock(4242); RETURN NULL; END $$;
                CREATE CONSTRAINT TRIGGER slow_commit AFTER UPDATE ON sessions DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW WHEN (NEW.version = 3) EXECUTE FUNCTION slow_commit();
                SELECT pg_advisory_lock(4242);
                """)
        }
        // The next event through the first node: its COMMIT waits in the trigger.
        let lastEvent = Task { [client] in
            var client = client
            return try? await client.send(ConcurrencyTests.nextEvent(for: client))
        }
        try await waitUntil("the first node's COMMIT to be under way") {
            try await TestHTTP.offPool {
                try StoredData.open(database).queryFirst(
                    """
                    SELECT count(*) FROM pg_stat_activity
                    WHERE datname = current_database() AND query = 'COMMIT' AND state = 'active'
                    """
                ) { $0.int(0) } == 1
            }
        }
        try await nodes[0].stop(signal: SIGKILL)
        #expect(try await lastEvent.value("the last event's connection to end")?.status != 200)
        // Only now, with its node dead, does the COMMIT go on and land.
        try await TestHTTP.offPool { try holder.connection.execute("SELECT pg_advisory_unlock(4242)") }

        try await Self.waitForTransactionsToEnd(database)
        var moved = client.moved(to: nodes[1].port)
        #expect(try await moved.refresh().status == 200)
        #expect(moved.version == 3, "the dead node's last event landed after it died")
        let next = try await moved.send(ConcurrencyTests.nextEvent(for: moved))
        #expect(next.status == 200, "\(next.text)")
        #expect(moved.version == 4)
    }

    /// One round: every session under load through its home node (session `i` on node `i % 3`),
    /// `kill -9` of `nodes[victim]` after `events` more acknowledged events; then each session is
    /// read through a surviving node (nothing acknowledged lost) and takes its next event there.
    static func killRound(
        _ nodes: [ServerProcess], victim: Int, clients: inout [SessionClient], acknowledged: CrashTests.Acknowledgements,
        events: Int, round: Int
    ) async throws {
        for index in clients.indices { clients[index] = clients[index].moved(to: nodes[index % nodes.count].port) }
        let load = acknowledged.load(clients)
        let target = acknowledged.count.load(ordering: .relaxed) + events
        try await waitUntil("\(target) acknowledged events, or most clients stopped") {
            acknowledged.count.load(ordering: .relaxed) >= target || acknowledged.clients.load(ordering: .relaxed) <= 4
        }
        try await nodes[victim].stop(signal: SIGKILL)
        load.cancel()
        try await load.value("the load to stop")
        try await Self.waitForTransactionsToEnd(nodes[victim].databasePath)

        let survivors = nodes.indices.filter { $0 != victim }.map { nodes[$0] }
        for index in clients.indices {
            let id = clients[index].id
            // The dead node's sessions, and the others, through a surviving node.
            var moved = clients[index].moved(to: survivors[index % survivors.count].port)
            #expect(try await moved.refresh().status == 200, "round \(round): \(id)")
            let acked = try #require(acknowledged.latest.withLock { $0[id] })
            #expect(moved.version >= acked.version, "round \(round): \(id) lost an acknowledged event")
            if moved.version == acked.version {
                #expect(SessionClient.parse(moved.stateText) as NSDictionary == SessionClient.parse(acked.state) as NSDictionary)
            }
            // And they take new events there.
            let before = moved.version
            let next = try await moved.send(ConcurrencyTests.nextEvent(for: moved))
            #expect(next.status == 200, "round \(round): \(id) at version \(before): \(next.status) \(next.text)")
            #expect(moved.version == before + 1, "round \(round): \(id)")
            acknowledged.record(moved)
            clients[index] = moved
        }
    }

    /// Returns once PostgreSQL runs no transaction in `database` and has none open, but for this
    /// check's own. After a node's `kill -9`, a `COMMIT` it sent just before may still wait in its
    /// backend's socket and land when that backend gets to it, which on a busy machine can be after
    /// a surviving node read the session: the dead node's last event is neither applied nor refused
    /// until then, and a tap chosen from what was read meanwhile can turn out stale (a `409`).
    /// Surviving nodes are idle here (the load stopped); a sweep they run ends by itself.
    static func waitForTransactionsToEnd(_ database: String) async throws {
        try await waitUntil("PostgreSQL to end every transaction of the dead node") {
            try await TestHTTP.offPool {
                let busy = try StoredData.open(database).queryFirst(
                    """
                    SELECT count(*) FROM pg_stat_activity
                    WHERE datname = current_database() AND backend_type = 'client backend'
                        AND pid <> pg_backend_pid() AND state IS DISTINCT FROM 'idle'
                    """
                ) { $0.int(0) }
                return busy == 0
            }
        }
    }

    /// PostgreSQL stopped under load: events get 503 (nothing changed), never another error; once
    /// it is back, the same nodes serve again without a restart and nothing acknowledged is lost.
    @Test func postgresStoppedAndStartedAgainUnderLoad() async throws {
        let cluster = try await TestHTTP.offPool { try PostgresCluster() }
        _ = try await TestHTTP.offPool { try cluster.psql("CREATE DATABASE outage", database: "postgres") }
        let nodes = try await Self.nodes(2, database: cluster.url(database: "outage"))
        var clients: [SessionClient] = []
        for index in 0..<6 { clients.append(try await SessionClient.create(port: nodes[index % 2].port)) }

        // Events while the database is up, down and up again; every answer is a 200 or a 503.
        func drive(_ clients: inout [SessionClient], rounds: Int) async throws -> [Int] {
            var statuses: [Int] = []
            for _ in 0..<rounds {
                for index in clients.indices {
                    let response = try await clients[index].send(ConcurrencyTests.nextEvent(for: clients[index]))
                    statuses.append(response.status)
                    if response.status == 503 {
                        #expect(response.headers["content-type"] == "application/problem+json")
                    }
                }
            }
            return statuses
        }
        #expect(Set(try await drive(&clients, rounds: 3)) == [200])
        let versionsBefore = clients.map(\.version)
        try await TestHTTP.offPool { try cluster.stop() }
        let whileDown = try await drive(&clients, rounds: 2)
        #expect(Set(whileDown) == [503])
        #expect(clients.map(\.version) == versionsBefore)
        let health = try await TestHTTP.request(port: nodes[0].port, "GET", "/healthz")
        #expect(health.status == 503)

        try await TestHTTP.offPool { try cluster.start() }
        // Each pooled connection reconnects on its next use; no node restarts.
        let afterwards = try await drive(&clients, rounds: 3)
        #expect(Set(afterwards).isSubset(of: [200, 503]))
        #expect(afterwards.suffix(clients.count).allSatisfy { $0 == 200 })
        for (index, client) in clients.enumerated() {
            var other = client.moved(to: nodes[(index + 1) % 2].port)
            #expect(try await other.refresh().status == 200)
            #expect(other.version == client.version)
            #expect(SessionClient.parse(other.stateText) as NSDictionary == client.state as NSDictionary)
        }
        #expect(try await TestHTTP.request(port: nodes[1].port, "GET", "/healthz").status == 200)
        try await TestHTTP.offPool { try cluster.stop(mode: "immediate") }
    }
}

/// A connection handed from one test thread to the next, one use at a time.
/// `@unchecked Sendable`: the test uses it strictly in sequence, never from two threads at once.
private struct UncheckedConnection: @unchecked Sendable {
    let connection: any SQLConnection
    init(_ connection: any SQLConnection) { self.connection = connection }
}
