import Foundation
import SQLiteStore
import Store
import TestSupport
import Testing

@Suite struct ConcurrencyTests {
    /// The event that keeps the auth flow moving: open the login screen, then go back.
    static func nextEvent(for client: SessionClient) -> String {
        client.topScreen.name == "firstRun" ? "logIn" : "back"
    }

    @Test(arguments: Backend.allCases) func sixtyFourClientsWithIfMatchLoseNoUpdate(backend: Backend) async throws {
        // Every client is 127.0.0.1, like clients behind a proxy: allow them more connections.
        let server = try await ServerProcess.start(backend: backend, arguments: ["--per-address-connection-limit", "512"])
        let session = try await SessionClient.create(port: server.port)
        let perClient = 3
        let versions = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<64 {
                group.addTask {
                    var client = session
                    var acknowledged: [Int] = []
                    var attempts = 0
                    while acknowledged.count < perClient {
                        attempts += 1
                        if attempts > 2000 { throw TestClientError(description: "no progress") }
                        let response = try await client.send(
                            Self.nextEvent(for: client), headers: ["If-Match": "\"\(client.version)\""])
                        switch response.status {
                        case 200: acknowledged.append(client.version)
                        case 409, 412:
                            let state = response.json["state"] as? [String: Any] ?? [:]
                            client = SessionClient(
                                port: client.port, id: client.id, token: client.token, stateText: SessionClient.json(state))
                        default: throw TestClientError(description: "unexpected \(response.status): \(response.text)")
                        }
                    }
                    // Each client saw its own versions strictly increase.
                    guard acknowledged == acknowledged.sorted(), Set(acknowledged).count == acknowledged.count else {
                        throw TestClientError(description: "versions went backwards: \(acknowledged)")
                    }
                    return acknowledged
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        // Every 200 is its own version: 2...(1 + 64 × 3), none lost, none twice.
        #expect(versions.sorted() == Array(2...(1 + 64 * perClient)))
        var final = session
        _ = try await final.refresh()
        #expect(final.version == 1 + 64 * perClient)
    }

    /// Racers tap one session at once: `racers[i]` goes to `ports[i % ports.count]`, each sending
    /// `rounds` events chosen by `event` from the last State it saw. Returns every answer; the
    /// caller checks them with `checkRace`.
    static func race(
        _ session: SessionClient, ports: [UInt16], racers: Int, rounds: Int, event: @escaping @Sendable (SessionClient) -> String
    ) async throws -> [TestResponse] {
        try await withThrowingTaskGroup(of: [TestResponse].self) { group in
            for racer in 0..<racers {
                group.addTask {
                    var client = session.moved(to: ports[racer % ports.count])
                    var answers: [TestResponse] = []
                    for _ in 0..<rounds {
                        let response = try await client.send(event(client))
                        answers.append(response)
                        if response.status == 409, let state = response.json["state"] as? [String: Any] {
                            client = SessionClient(
                                port: client.port, id: client.id, token: client.token, stateText: SessionClient.json(state))
                        }
                    }
                    return answers
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// Every answer of a race is a `200` or a `409` with the current State (a lost race is a stale
    /// tap, never a storage failure); the `200`s are versions 2, 3, … with none twice or skipped.
    static func checkRace(_ answers: [TestResponse], startingAt version: Int) {
        let statuses = Dictionary(grouping: answers, by: \.status).mapValues(\.count)
        #expect(Set(statuses.keys).isSubset(of: [200, 409]), "\(statuses)")
        for answer in answers where answer.status == 409 {
            #expect(answer.json["state"] is [String: Any], "\(answer.text)")
        }
        let applied = answers.filter { $0.status == 200 }.compactMap { $0.json["version"] as? Int }.sorted()
        #expect(applied == Array((version + 1)..<(version + 1 + applied.count)))
    }

    /// Nine racers on one session of one server: events apply one at a time; every answer is a
    /// `200` or, for a tap the session moved past, a `409`.
    @Test(arguments: Backend.allCases) func nineRacersOnOneSessionGet200Or409(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var session = try await SessionClient.create(port: server.port)
        try await Journey.register(&session, email: "racer@example.com", displayName: "Racer")
        // `refresh` is valid on every version; `logIn`/`back` only on the version it was chosen from.
        let refreshes = try await Self.race(session, ports: [server.port], racers: 9, rounds: 6) { _ in "refresh" }
        Self.checkRace(refreshes, startingAt: session.version)
        #expect(refreshes.allSatisfy { $0.status == 200 }, "one server applies every valid tap in turn")
        _ = try await session.refresh()
        var fresh = try await SessionClient.create(port: server.port)
        _ = try await fresh.refresh()
        let taps = try await Self.race(fresh, ports: [server.port], racers: 9, rounds: 6) { Self.nextEvent(for: $0) }
        Self.checkRace(taps, startingAt: fresh.version)
    }

    @Test(arguments: Backend.allCases) func manySessionsAtOnce(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: Self.manyClientsOnOneAddress)
        let clients = try await Self.tenEventsEach(on: server.port, sessions: 40)
        #expect(clients.map(\.version) == Array(repeating: 11, count: 40))
    }

    /// With `--gather-commits on` (commits wait a little for company under a steady load) every
    /// event of many sessions at once commits, and what was acknowledged is what a restarted
    /// server (without the setting) finds stored.
    @Test func manySessionsAtOnceWithGatheredCommits() async throws {
        let path = try await Backend.sqlite.newDatabase()
        var server = try await ServerProcess.start(
            databasePath: path, arguments: Self.manyClientsOnOneAddress + ["--gather-commits", "on"])
        var clients = try await Self.tenEventsEach(on: server.port, sessions: 40)
        #expect(clients.map(\.version) == Array(repeating: 11, count: 40))
        #expect(try await server.stop() == 0)
        server = try await ServerProcess.start(databasePath: path)
        for index in clients.indices {
            clients[index] = clients[index].moved(to: server.port)
            _ = try await clients[index].refresh()
        }
        #expect(clients.map(\.version) == Array(repeating: 11, count: 40))
    }

    /// Every client of these tests is 127.0.0.1, and each request a connection of its own: until
    /// the server has seen a closed one's end, it still counts against the address's 64 (without
    /// this, 40 clients alone on the machine were turned away: "connection closed").
    static let manyClientsOnOneAddress = ["--per-address-connection-limit", "512"]

    /// `sessions` new sessions, each sent ten events at once with the others; each as it ends.
    static func tenEventsEach(on port: UInt16, sessions: Int) async throws -> [SessionClient] {
        try await withThrowingTaskGroup(of: SessionClient.self) { group in
            for _ in 0..<sessions {
                group.addTask {
                    var client = try await SessionClient.create(port: port)
                    for _ in 0..<10 {
                        let response = try await client.send(Self.nextEvent(for: client))
                        guard response.status == 200 else { throw TestClientError(description: response.text) }
                    }
                    _ = try await client.refresh()
                    return client
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}

@Suite struct RestartTests {
    @Test(arguments: Backend.allCases) func aRestartedServerServesEverySessionAsItWas(backend: Backend) async throws {
        let path = try await backend.newDatabase()
        var server = try await ServerProcess.start(databasePath: path)
        var clients: [SessionClient] = []
        for index in 0..<6 {
            var client = try await SessionClient.create(port: server.port, platform: index % 2 == 0 ? "phone" : "tablet")
            for _ in 0..<index { _ = try await client.send(ConcurrencyTests.nextEvent(for: client)) }
            if index == 5 { _ = try await client.send("signUp", screen: client.top) }
            clients.append(client)
        }
        let before = try await clients.asyncMap { try await $0.get("").text }
        #expect(try await server.stop() == 0)

        server = try await ServerProcess.start(databasePath: path)
        for index in clients.indices { clients[index] = clients[index].moved(to: server.port) }
        let after = try await clients.asyncMap { try await $0.get("").text }
        #expect(after.map(SessionClient.parse).map(SessionClient.json) == before.map(SessionClient.parse).map(SessionClient.json))
        // And they continue where they were.
        var last = clients[5]
        _ = try await last.refresh()
        #expect(last.topScreen.name == "signUp.form")
        let next = try await last.send("back")
        #expect(next.status == 200)
        try await server.stop()
    }

    /// A database whose migrations were recorded the way earlier builds did (one numbering for
    /// the core's and the app's tables; no `AccountProtection` module nor sign-in kit, whose tables the sample app
    /// made itself) is upgraded in place and serves its sessions as they were.
    @Test func aDatabaseOfEarlierBuildsIsUpgradedAndServesItsSessions() async throws {
        let path = ServerProcess.temporaryDatabasePath()
        var server = try await ServerProcess.start(databasePath: path)
        var client = try await SessionClient.create(port: server.port)
        try await Journey.register(&client, email: "old@example.com", displayName: "Old")
        let before = try await client.get("").text
        #expect(try await server.stop() == 0)

        let database = try SQLiteConnection(path: path)
        try database.execute(
            """
            CREATE TABLE legacy (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);
            INSERT INTO legacy SELECT version, name, applied_at FROM schema_migrations WHERE scope NOT IN ('account-protection', 'signin');
            DROP TABLE schema_migrations;
            ALTER TABLE legacy RENAME TO schema_migrations;
            """)
        #expect(try database.queryFirst("SELECT count(*) FROM schema_migrations") { $0.int(0) } == 21)

        server = try await ServerProcess.start(databasePath: path)
        client = client.moved(to: server.port)
        #expect(try await client.get("").text == before)
        try Journey.expect200(try await client.send("compose"))
        var device = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await Journey.signIn(&device, email: "old@example.com"))
        #expect(device.topScreen.name == "timeline")
        let scopes = try SQLiteConnection(path: path).query(
            "SELECT scope, version FROM schema_migrations ORDER BY scope IN ('account-protection', 'signin'), scope = 'signin', version"
        ) { "\($0.string(0))/\($0.int(1))" }
        #expect(
            scopes == [
                "core/1", "core/2", "sample/3", "sample/4", "core/5", "core/6", "sample/7", "sample/8", "sample/9", "sample/10",
                "sample/11", "core/12", "core/13", "core/14", "core/15", "core/16", "core/17", "core/18", "core/19", "core/20", "core/21", "account-protection/1",
                "account-protection/2", "signin/1",
            ])
    }

    /// A read moves a session's expiry in memory; evicted before that is stored, the session
    /// keeps it: the sweep writes pending expiries before it deletes anything.
    @Test func aReadExtendedSessionEvictedFromMemoryIsNotSweptEarly() async throws {
        let server = try await ServerProcess.start(
            arguments: ["--test-hooks", "--session-idle-timeout", "600", "--max-resident-sessions", "1"])
        var reader = try await SessionClient.create(port: server.port)
        try await server.advanceClock(seconds: 300)
        #expect(try await reader.refresh().status == 200)  // expires at 900 now, in memory only
        _ = try await SessionClient.create(port: server.port)  // evicts the reader
        try await server.advanceClock(seconds: 400)  // 700: past its first expiry (600), not the moved one
        try await server.sweep()
        #expect(try await reader.refresh().status == 200)
        try await server.advanceClock(seconds: 900)
        #expect(try await reader.refresh().status == 401)
    }

    @Test(arguments: Backend.allCases) func residentCapEvictsFromMemoryNotFromTheDatabase(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--max-resident-sessions", "5"])
        var clients: [SessionClient] = []
        for _ in 0..<25 {
            var client = try await SessionClient.create(port: server.port)
            _ = try await client.send("logIn")
            clients.append(client)
        }
        let metrics = try await TestHTTP.request(port: server.port, "GET", "/metrics").text
        let resident = metrics.split(separator: "\n").first { $0.hasPrefix("coordinatord_sessions_resident ") }
        #expect(Int(resident?.split(separator: " ").last ?? "") ?? 99 <= 5)
        for var client in clients {
            #expect(try await client.refresh().status == 200)
            #expect(client.topScreen.name == "login")
            #expect(try await client.send("back").status == 200)
        }
    }

    /// The server's clock stands still (`--test-hooks`) until the test moves it past the idle
    /// timeout, and the sweep runs when told: nothing here depends on how fast the machine is.
    @Test(arguments: Backend.allCases) func idleSessionsExpireAndAreSwept(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--test-hooks", "--session-idle-timeout", "600"])
        var client = try await SessionClient.create(port: server.port)
        var other = try await SessionClient.create(port: server.port)
        try await server.advanceClock(seconds: 590)
        #expect(try await client.refresh().status == 200)  // a read keeps it alive...
        try await server.advanceClock(seconds: 20)
        #expect(try await client.refresh().status == 200)  // ...past the first deadline
        #expect(try await other.refresh().status == 401)  // the other one was idle for 610 s
        try await server.sweep()
        let stored = try StoredData.open(server.databasePath).query("SELECT id, expires_at FROM sessions") {
            ($0.string(0), $0.int64(1))
        }
        // The sweep deleted the expired one from the database, and stored the read's expiry.
        #expect(stored.map(\.0) == [client.id])
        try await server.advanceClock(seconds: 601)
        #expect(try await client.refresh().status == 401)
        #expect(try await client.send("logIn").status == 401)
        try await server.sweep()
        let left = try StoredData.open(server.databasePath).queryFirst("SELECT count(*) FROM sessions") { $0.int(0) }
        #expect(left == 0)
    }
}

extension SessionClient {
    /// The same session reached through another server process.
    func moved(to port: UInt16) -> SessionClient {
        SessionClient(port: port, id: id, token: token, stateText: stateText)
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
