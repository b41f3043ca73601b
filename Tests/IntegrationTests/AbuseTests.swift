import Foundation
import Synchronization
import TestSupport
import Testing

/// One client cannot take what every client shares: the password hash pool, the sessions table,
/// the sweep's time. Behind a trusted proxy (`127.0.0.1`), `X-Forwarded-For` names each client.
/// The server's clock stands still (`--test-hooks`) and the pool is held while requests pile up,
/// so nothing here depends on how fast the machine is.
@Suite struct AbuseTests {
    static let flooder = ["X-Forwarded-For": "203.0.113.7"]
    static let tooManyPasswordChecks = "urn:coordinatord:problem:too-many-password-checks"
    static let tooManySessions = "urn:coordinatord:problem:too-many-sessions"

    /// Sends `event` from each client at once, each in a task of its own; the tasks.
    static func sendAll(
        _ clients: [SessionClient], _ event: String, _ payload: [String: Any], headers: (Int) -> [String: String]
    ) -> [Task<TestResponse, any Error>] {
        let body = SessionClient.json(payload)
        return clients.enumerated().map { index, client in
            let header = headers(index)
            return Task {
                var client = client
                return try await client.send(event, SessionClient.parse(body), headers: header)
            }
        }
    }

    /// Twelve sessions of one client send their registration password at once into a held pool
    /// with room for eight: four are queued, the other eight get `429` at once, and the sign-ins
    /// of three other clients still find room and succeed. Before, the flood filled the queue
    /// and the others got `503`.
    @Test(arguments: Backend.allCases) func oneClientFloodingThePasswordStepCannotStopOthersSigningIn(backend: Backend)
        async throws
    {
        let server = try await ServerProcess.start(
            backend: backend,
            arguments: [
                "--test-hooks", "--trusted-proxy", "127.0.0.1", "--hash-concurrency", "1", "--max-queued-hashes", "8",
                "--hashes-per-client", "4",
            ])
        var owner = try await SessionClient.create(port: server.port)
        try await Journey.register(&owner, email: "owner@example.com", displayName: "Owner")

        var flooding: [SessionClient] = []
        for index in 0..<12 {
            var client = try await SessionClient.create(port: server.port, headers: Self.flooder)
            try Journey.expect200(try await client.send("signUp", headers: Self.flooder))
            try Journey.expect200(try await client.send("next", ["email": "flood\(index)@example.com"], headers: Self.flooder))
            flooding.append(client)
        }
        var others: [SessionClient] = []
        for index in 0..<3 {
            var client = try await SessionClient.create(port: server.port)
            try Journey.expect200(try await client.send("logIn", headers: ["X-Forwarded-For": "198.51.100.\(index + 1)"]))
            others.append(client)
        }

        try await server.pausePasswordPool(true)
        let flood = Self.sendAll(flooding, "next", ["password": Journey.password]) { _ in Self.flooder }
        let answered = Counted()
        for task in flood { Task { _ = try? await task.value; answered.add() } }
        try await waitUntil("every request of the flood queued or answered") {
            Int(try await server.metric("coordinatord_password_queue_depth") ?? 0) + answered.value == 12
        }
        let signIns = Self.sendAll(others, "submit", ["email": "owner@example.com", "password": Journey.password]) {
            ["X-Forwarded-For": "198.51.100.\($0 + 1)"]
        }
        let signInsAnswered = Counted()
        for task in signIns { Task { _ = try? await task.value; signInsAnswered.add() } }
        try await waitUntil("every sign-in queued or answered") {
            Int(try await server.metric("coordinatord_password_queue_depth") ?? 0) + answered.value + signInsAnswered.value
                == 15
        }
        try await server.pausePasswordPool(false)

        for task in signIns {
            let answer = try await task.value
            #expect(answer.status == 200, "a sign-in from elsewhere: \(answer.status) \(answer.text)")
            #expect(SessionClient.parse(answer.text)["user"] is [String: Any])
        }
        var statuses: [Int] = []
        for (task, client) in zip(flood, flooding) {
            let answer = try await task.value
            statuses.append(answer.status)
            guard answer.status == 429 else { continue }
            #expect(answer.headers["retry-after"] == "1")
            #expect(answer.headers["content-type"] == "application/problem+json")
            #expect(answer.json["type"] as? String == Self.tooManyPasswordChecks)
            // Refused: nothing changed.
            var refused = client
            #expect(try await refused.refresh().status == 200)
            #expect(refused.topScreen.name == "signUp.password" && refused.version == client.version)
        }
        #expect(statuses.sorted() == Array(repeating: 200, count: 4) + Array(repeating: 429, count: 8))
    }

    /// The tablet form and the registration password step take their rate-limit token before
    /// they hash: a client past its rate is refused without a hash. Before, each refusal came
    /// after a hash (the tablet form), or never (the password step, looped with `back`).
    @Test(arguments: Backend.allCases) func everyFormThatHashesTakesItsRateLimitTokenFirst(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--test-hooks", "--trusted-proxy", "127.0.0.1"])
        var owner = try await SessionClient.create(port: server.port)
        try await Journey.register(&owner, email: "taken@example.com", displayName: "Taken")
        let hashes = { Int(try await server.metric("coordinatord_password_jobs_started_total") ?? -1) }

        // The tablet form, for an e-mail that is taken: each try counts, until the bucket is empty.
        let tablet = ["X-Forwarded-For": "203.0.113.20"]
        var form = try await SessionClient.create(port: server.port, platform: "tablet", headers: tablet)
        try Journey.expect200(try await form.send("signUp", headers: tablet))
        let submit: [String: Any] = ["email": "taken@example.com", "password": Journey.password, "displayName": "Eve"]
        var tries = 0
        while try await form.send("submit", submit, headers: tablet).status == 200 {
            tries += 1
            try #require(tries <= 40, "the tablet form is never rate-limited")
        }
        let before = try await hashes()
        for _ in 0..<5 {
            let refused = try await form.send("submit", submit, headers: tablet)
            #expect(refused.status == 429)
            #expect(refused.headers["retry-after"] != nil)
        }
        #expect(try await hashes() == before, "a refused tablet form was hashed")

        // The password step, looped with `back`: each `next` hashes, so each takes a token first.
        let looping = ["X-Forwarded-For": "203.0.113.21"]
        var steps = try await SessionClient.create(port: server.port, headers: looping)
        try Journey.expect200(try await steps.send("signUp", headers: looping))
        try Journey.expect200(try await steps.send("next", ["email": "loop@example.com"], headers: looping))
        tries = 0
        while try await steps.send("next", ["password": Journey.password], headers: looping).status == 200 {
            try Journey.expect200(try await steps.send("back", headers: looping))
            tries += 1
            try #require(tries <= 40, "the password step is never rate-limited")
        }
        let beforeLoop = try await hashes()
        for _ in 0..<3 {
            #expect(try await steps.send("next", ["password": Journey.password], headers: looping).status == 429)
        }
        #expect(try await hashes() == beforeLoop, "a refused password step was hashed")
        #expect(steps.topScreen.name == "signUp.password")
    }

    /// One client (an address, or an IPv6 /64) creates sessions at its rate: `2 × rate` at once,
    /// then `429` with `Retry-After` and nothing stored, while other clients go on; a token comes
    /// back every `60 / rate` seconds. Before, every request made a session.
    @Test(arguments: Backend.allCases) func sessionCreationIsRateLimitedPerClient(backend: Backend) async throws {
        let server = try await ServerProcess.start(
            backend: backend, arguments: ["--test-hooks", "--trusted-proxy", "127.0.0.1", "--sessions-per-minute", "3"])
        let create = { (address: String) in
            try await TestHTTP.request(
                port: server.port, "POST", "/v1/sessions",
                headers: ["Content-Type": "application/json", "X-Forwarded-For": address], body: "{}")
        }
        let stored = {
            try StoredData.open(server.databasePath).queryFirst("SELECT count(*) FROM sessions") { $0.int(0) } ?? -1
        }
        for _ in 0..<6 { #expect(try await create("203.0.113.30").status == 201) }
        let refused = try await create("203.0.113.30")
        #expect(refused.status == 429)
        #expect(refused.headers["retry-after"] == "20")
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(refused.json["type"] as? String == Self.tooManySessions)
        #expect(try stored() == 6)

        #expect(try await create("203.0.113.31").status == 201)
        // Addresses in one IPv6 /64 are one client.
        for host in 1...6 { #expect(try await create("2001:db8:0:1::\(host)").status == 201) }
        #expect(try await create("2001:db8:0:1:ffff::1").status == 429)
        #expect(try await create("2001:db8:0:2::1").status == 201)

        try await server.advanceClock(seconds: 20)
        #expect(try await create("203.0.113.30").status == 201)
        #expect(try await create("203.0.113.30").status == 429)
        #expect(try stored() == 6 + 1 + 6 + 1 + 1)
    }

    /// A session that has had no event expires after `--unused-session-timeout` (a read keeps it
    /// only that long), and the sweep deletes it; after its first event the idle timeout holds.
    /// Before, an unused session lived as long as any other (a week by default).
    @Test(arguments: Backend.allCases) func aSessionWithoutEventsExpiresSoon(backend: Backend) async throws {
        let server = try await ServerProcess.start(
            backend: backend, arguments: ["--test-hooks", "--unused-session-timeout", "300", "--session-idle-timeout", "3600"])
        var unused = try await SessionClient.create(port: server.port)
        var read = try await SessionClient.create(port: server.port)
        var used = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await used.send("logIn"))

        try await server.advanceClock(seconds: 200)
        #expect(try await read.refresh().status == 200)  // now expires at 500, not 3800
        try await server.advanceClock(seconds: 101)
        #expect(try await unused.refresh().status == 401)
        #expect(try await read.refresh().status == 200)
        #expect(try await used.refresh().status == 200)
        try await server.sweep()
        let ids = try StoredData.open(server.databasePath).query("SELECT id FROM sessions ORDER BY id") { $0.string(0) }
        #expect(ids == [read.id, used.id].sorted())

        try await server.advanceClock(seconds: 301)
        #expect(try await read.refresh().status == 401)
        #expect(try await used.refresh().status == 200)
        #expect(try await used.send("back").status == 200)
    }

    /// Many sessions expiring together are deleted in transactions of at most
    /// `--sweep-batch-size` rows (25 sessions, batches of 10: 10, 10, 5), and the sessions that
    /// live go on. Before, one statement deleted them all.
    @Test(arguments: Backend.allCases) func theSweepDeletesInBoundedBatches(backend: Backend) async throws {
        let server = try await ServerProcess.start(
            backend: backend,
            arguments: ["--test-hooks", "--unused-session-timeout", "300", "--session-idle-timeout", "3600", "--sweep-batch-size", "10"])
        for _ in 0..<25 { _ = try await SessionClient.create(port: server.port) }
        var live = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await live.send("logIn", headers: ["Idempotency-Key": "k"]))
        try await server.advanceClock(seconds: 301)
        try await server.sweep()
        let left = try StoredData.open(server.databasePath).query("SELECT id FROM sessions") { $0.string(0) }
        #expect(left == [live.id])
        // Three batches of sessions (10, 10, 5), one of old stored answers, one of old journal
        // entries (none), one of finished effects (none) and, on PostgreSQL, one of ended live
        // leases (none).
        #expect(try await server.metric("coordinatord_sweep_batches_total") == (backend == .postgresql ? 7 : 6))
        #expect(try await server.metric("coordinatord_sweep_deleted_rows_total") == 25)
        #expect(try await live.send("back").status == 200)
    }
}

/// A count that tasks add to.
final class Counted: Sendable {
    private let count = Atomic<Int>(0)

    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
