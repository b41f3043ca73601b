import Foundation
import TestSupport
import Testing

/// Each session's journal (issue 23): written with each event, without secrets, bounded, and
/// read back as history and as the State at past versions.
@Suite struct JournalTests {
    static let newPassword = "a brand new passphrase 2026"
    static let wrongPassword = "not the password!!"

    /// The README journey, with every answer's version and State (without the token) kept.
    struct Answered {
        var events: [String] = ["(start)"]
        var states: [Int: String] = [:]

        mutating func keep(_ client: SessionClient, after event: String) {
            events.append(event)
            states[client.version] = client.stateText
        }
    }

    static func journey(_ client: inout SessionClient) async throws -> Answered {
        var answered = Answered()
        answered.states[client.version] = client.stateText
        func step(_ event: String, _ payload: [String: Any]? = nil) async throws {
            try Journey.expect200(try await client.send(event, payload))
            answered.keep(client, after: event)
        }
        try await step("signUp")
        try await step("next", ["email": "ada@example.com"])
        try await step("next", ["password": Journey.password])
        try await step("finish", ["displayName": "Ada"])
        try await step("compose")
        try await step("submit", ["text": "Hello, coordinators!"])
        try await step("selectTab", ["tab": "profile"])
        try await step("openSettings")
        try await step("signOut")
        try await step("logIn")
        try await step("submit", ["email": "ada@example.com", "password": Journey.password])
        try await step("selectTab", ["tab": "profile"])
        try await step("openSettings")
        try await step("changePassword")
        try await step("save", ["currentPassword": wrongPassword, "newPassword": "x"])
        try await step("save", ["currentPassword": Journey.password, "newPassword": newPassword])
        return answered
    }

    /// The journey's last steps: Ada deletes her account (which erases her sessions' history).
    static func deleteAccount(_ client: inout SessionClient) async throws {
        try Journey.expect200(try await client.send("deleteAccount"))
        try Journey.expect200(try await client.send("confirm", ["password": newPassword]))
        #expect(client.topScreen.name == "firstRun")
    }

    /// Every entry of the session's history, following the cursor page by page (newest first).
    static func history(_ client: SessionClient, path: String? = nil, headers: [String: String]? = nil) async throws
        -> [[String: Any]]
    {
        var entries: [[String: Any]] = []
        var cursor: String?
        for _ in 0..<100 {
            let query = "?limit=5" + (cursor.map { "&before=\($0)" } ?? "")
            let response = try await TestHTTP.request(
                port: client.port, "GET", (path ?? "/v1/sessions/\(client.id)/history") + query,
                headers: headers ?? ["Authorization": "Bearer \(client.token)"])
            guard response.status == 200 else { throw TestClientError(description: "history: \(response.text)") }
            let page = response.json["entries"] as? [[String: Any]] ?? []
            #expect(page.count <= 5)
            entries += page
            guard let next = response.json["next"] as? String else { return entries }
            cursor = next
        }
        throw TestClientError(description: "the history's pages never ended")
    }

    static let passwords = [Journey.password, newPassword, wrongPassword]

    @Test(arguments: Backend.allCases) func theJournalOfTheWholeJourneyKeepsEveryEventAndNoPassword(backend: Backend) async throws {
        let server = try await ServerProcess.start(
            backend: backend,
            arguments: ["--test-hooks", "--node-name", "node-a", "--operator-key-file", try OperatorAccessTests.keyFile()])
        var client = try await SessionClient.create(port: server.port)
        let answered = try await Self.journey(&client)

        // The session's own token reads from Ada's last sign-in on (a sign-out is a boundary:
        // HistoryBoundaryTests); an operator reads it all.
        let lastSignIn = try #require(answered.events.lastIndex(of: "submit"))
        let own = try await Self.history(client)
        #expect(own.map { $0["version"] as? Int ?? 0 } == Array((lastSignIn + 1...answered.events.count).reversed()))
        #expect(own.allSatisfy { $0["node"] == nil }, "a session's holder is not told the node's name")
        let operatorHeaders = ["Authorization": "Bearer \(OperatorAccessTests.key)"]
        let entries = try await Self.history(client, path: "/v1/operator/sessions/\(client.id)/history", headers: operatorHeaders)
        // Newest first, one entry per version, each event in the order sent.
        #expect(entries.map { $0["version"] as? Int ?? 0 } == Array((1...answered.events.count).reversed()))
        #expect(entries.reversed().map { $0["event"] as? String ?? "" } == answered.events)
        #expect(entries.allSatisfy { ($0["previousVersion"] as? Int ?? -1) == ($0["version"] as? Int ?? 0) - 1 })
        #expect(entries.allSatisfy { $0["node"] as? String == "node-a" && $0["replay"] as? Bool == false })
        let signIn = try #require(entries.first { $0["event"] as? String == "submit" && $0["screenName"] as? String == "login" })
        #expect(SessionClient.json(signIn["payload"] ?? [:]) == #"{"email":"ada@example.com"}"#)
        #expect(signIn["redacted"] as? [String] == ["password"])
        let save = entries.filter { $0["event"] as? String == "save" }
        #expect(save.count == 2 && save.allSatisfy { ($0["redacted"] as? [String])?.sorted() == ["currentPassword", "newPassword"] })
        #expect(!entries.map { SessionClient.json($0) }.joined().contains("passphrase"))

        // The State at every version is what the client was answered then.
        for (version, state) in answered.states {
            let response = try await TestHTTP.request(
                port: server.port, "GET", "/v1/operator/sessions/\(client.id)/history/\(version)", headers: operatorHeaders)
            #expect(response.status == 200)
            #expect(SessionClient.json(response.json) == SessionClient.json(SessionClient.parse(state)), "version \(version)")
        }
        ProblemAssertions.expect(try await client.get("/history/\(client.version + 1)"), 404, "version-not-retained")
        ProblemAssertions.expect(try await client.get("/history?limit=0"), 400, "invalid-query")
        // What the search below looks for is found while it is there.
        #expect(try await Self.databaseContains("Hello, coordinators!", backend: backend, path: server.databasePath))

        // Deleting the account erases her session's history (JournalErasureTests has the rest).
        try await Self.deleteAccount(&client)
        #expect(try await Self.history(client).isEmpty)

        // No password anywhere in the database, nor the post (once the sweep has erased what her
        // deletion asked to erase from every journal, and that request).
        try await server.sweep()
        try await server.stop()
        for password in Self.passwords {
            #expect(try await Self.databaseContains(password, backend: backend, path: server.databasePath) == false)
        }
        #expect(try JournalErasureTests.columnsContaining("Hello, coordinators!", database: server.databasePath) == [])
    }

    /// True when `text` occurs in the database: in the SQLite file's (and its log's) bytes, or in
    /// any row of any table of the PostgreSQL database, read as text.
    static func databaseContains(_ text: String, backend: Backend, path: String) async throws -> Bool {
        switch backend {
        case .sqlite:
            let needle = Data(text.utf8)
            return [path, path + "-wal"].contains { file in
                (try? Data(contentsOf: URL(fileURLWithPath: file)))?.range(of: needle) != nil
            }
        case .postgresql:
            let database = PostgresCluster.databaseName(in: path)
            return try await TestHTTP.offPool {
                let cluster = try PostgresCluster.shared
                let tables = try cluster.psql(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'", database: database
                ).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                #expect(tables.contains("session_journal"))
                for table in tables {
                    // Blobs as text are hex; the journal's and snapshots' text columns are what matter,
                    // and `convert_from` reads the (uncompressed) bytea columns as text too.
                    let found = try cluster.psql(
                        "SELECT count(*) FROM \"\(table)\" t WHERE position('\(text)' in t::text) > 0 "
                            + "OR position(encode(convert_to('\(text)', 'UTF8'), 'hex') in t::text) > 0",
                        database: database)
                    if found.trimmingCharacters(in: .whitespacesAndNewlines) != "0" { return true }
                }
                return false
            }
        }
    }

    @Test(arguments: Backend.allCases) func aReplayedIdempotencyKeyIsJournaledAsAReplay(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        let screen = client.top
        try Journey.expect200(try await client.send("signUp", headers: ["Idempotency-Key": "k1"]))
        try Journey.expect200(try await client.send("signUp", screen: screen, headers: ["Idempotency-Key": "k1"]))
        let entries = try await Self.history(client)
        #expect(entries.map { $0["event"] as? String ?? "" } == ["signUp", "signUp", "(start)"])
        #expect(entries.map { $0["replay"] as? Bool ?? false } == [true, false, false])
        #expect(entries.map { $0["version"] as? Int ?? 0 } == [2, 2, 1])

        // Replaying one answer over and over does not grow the journal without bound: eight
        // replays of a version are journaled at most.
        for _ in 0..<10 {
            try Journey.expect200(try await client.send("signUp", screen: screen, headers: ["Idempotency-Key": "k1"]))
        }
        let replays = try await Self.history(client).filter { $0["replay"] as? Bool == true }
        #expect(replays.count == 8)
    }

    /// Replaying many answers, each at most eight times, journals at most 64 replays between two
    /// events: the ninth answer's replays are not journaled.
    @Test(arguments: Backend.allCases) func replaysBetweenTwoEventsAreBounded(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        var sent: [(event: String, screen: String, version: Int)] = []
        for index in 0..<9 {
            let (event, screen) = (index % 2 == 0 ? "signUp" : "back", client.top)
            try Journey.expect200(try await client.send(event, headers: ["Idempotency-Key": "k\(index)"]))
            sent.append((event, screen, client.version))
        }
        for (index, answer) in sent.enumerated() {
            for _ in 0..<9 {
                var retry = client
                try Journey.expect200(
                    try await retry.send(answer.event, screen: answer.screen, headers: ["Idempotency-Key": "k\(index)"]))
                #expect(retry.version == answer.version)
            }
        }
        let replays = try await Self.history(client).filter { $0["replay"] as? Bool == true }
        #expect(replays.count == 64)
        let versions = Dictionary(grouping: replays) { $0["version"] as? Int ?? 0 }.mapValues(\.count)
        #expect(versions == Dictionary(uniqueKeysWithValues: sent.prefix(8).map { ($0.version, 8) }))
        // An event starts a new run of replays.
        try Journey.expect200(try await client.send(client.topScreen.name == "firstRun" ? "signUp" : "back"))
        var retry = client
        try Journey.expect200(try await retry.send(sent[8].event, screen: sent[8].screen, headers: ["Idempotency-Key": "k8"]))
        #expect(try await Self.history(client).filter { $0["replay"] as? Bool == true }.count == 65)
    }

    @Test(arguments: Backend.allCases) func retentionTrimsBySessionAndByAge(backend: Backend) async throws {
        let server = try await ServerProcess.start(
            backend: backend, arguments: ["--test-hooks", "--journal-max-versions", "16", "--journal-retention", "100", "--sweep-batch-size", "5"])
        var client = try await SessionClient.create(port: server.port)
        var other = try await SessionClient.create(port: server.port)
        for index in 0..<47 { try Journey.expect200(try await client.send(index % 2 == 0 ? "signUp" : "back")) }
        #expect(client.version == 48)
        try Journey.expect200(try await other.send("signUp"))
        // Version 48 trimmed the session's journal to its newest 16 versions.
        let kept = try await Self.history(client)
        #expect(kept.map { $0["version"] as? Int ?? 0 } == Array((33...48).reversed()))
        ProblemAssertions.expect(try await client.get("/history/32"), 404, "version-not-retained")
        #expect(try await client.get("/history/33").status == 200)
        #expect(try await Self.history(other).count == 2)

        // Past the retention age the sweep deletes them all, in batches.
        try await server.advanceClock(seconds: 101)
        try await server.sweep()
        #expect(try await Self.history(client).isEmpty)
        #expect(try await Self.history(other).isEmpty)
        ProblemAssertions.expect(try await client.get("/history/48"), 404, "version-not-retained")
        // The sessions themselves live on (idle timeout is a week).
        try Journey.expect200(try await client.send("back"))
        #expect(try await Self.history(client).map { $0["version"] as? Int ?? 0 } == [49])
    }

    /// An `open` event's entry keeps the link it opened (it is the app's declared system event,
    /// with one field, not secret), so history, the inspector and the deploy check can say which.
    @Test(arguments: Backend.allCases) func aLinkOpenedIsJournaledWithItsLink(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("open", ["link": "/signup"]))
        let newest = try #require(try await Self.history(client).first)
        #expect(newest["event"] as? String == "open")
        #expect((newest["payload"] as? [String: Any])?["link"] as? String == "/signup")
        #expect(newest["redacted"] as? [String] == [])
    }

    /// The registration coordinator keeps the password's hash in its state between steps, as a
    /// `@Confidential` field: the session's stored snapshot has it, the journal's copies never
    /// do, and every journaled State still reads back.
    @Test(arguments: Backend.allCases) func aConfidentialStateFieldNeverReachesTheJournal(backend: Backend) async throws {
        let server = try await ServerProcess.start(
            backend: backend, arguments: ["--operator-key-file", try OperatorAccessTests.keyFile()])
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("signUp"))
        try Journey.expect200(try await client.send("next", ["email": "ada@example.com"]))
        try Journey.expect200(try await client.send("next", ["password": Journey.password]))
        try Journey.expect200(try await client.send("back"))
        try Journey.expect200(try await client.send("next", ["password": Journey.password]))
        let stored = try StoredData.open(server.databasePath)
        // The stored snapshot kept the hash for the last step: the account is created with it.
        try Journey.expect200(try await client.send("finish", ["displayName": "Ada"]))
        #expect(client.state["user"] is [String: Any])

        let hash = try #require(
            try stored.queryFirst("SELECT password_hash FROM users WHERE display_name = 'Ada'", []) { $0.string(0) })
        // The hash's random tail: found verbatim wherever the hash is stored, compressed or not.
        let tail = Array(hash.suffix(24).utf8)
        let snapshots = try stored.query(
            "SELECT snapshot FROM session_journal WHERE session_id = ?1 AND snapshot IS NOT NULL", [.text(client.id)]
        ) { $0.blob(0) }
        #expect(snapshots.count == 7)
        #expect(!snapshots.contains { Data($0).range(of: Data(tail)) != nil }, "a journal snapshot holds the hash")
        for version in 1...client.version {
            let state = try await OperatorAccessTests.get(
                server, "/v1/operator/sessions/\(client.id)/history/\(version)", key: OperatorAccessTests.key)
            #expect(state.status == 200, "version \(version)")
        }
    }

    /// A session no one ever signed in to keeps no journal past its life, so anonymous clients
    /// cannot fill the store for the retention period; a signed-in session's journal stays
    /// readable (to an operator) for it. The bytes journaled are counted.
    @Test(arguments: Backend.allCases) func anAnonymousSessionsJournalEndsWithIt(backend: Backend) async throws {
        let server = try await ServerProcess.start(
            backend: backend,
            arguments: ["--test-hooks", "--session-idle-timeout", "100", "--operator-key-file", try OperatorAccessTests.keyFile()])
        var anonymous = try await SessionClient.create(port: server.port)
        for index in 0..<20 { try Journey.expect200(try await anonymous.send(index % 2 == 0 ? "signUp" : "back")) }
        var signedIn = try await SessionClient.create(port: server.port)
        try await Journey.register(&signedIn, email: "ada@example.com", displayName: "Ada")
        let written = try #require(try await server.metric("coordinatord_journal_bytes_written_total"))
        #expect(written > 0)
        try Journey.expect200(try await anonymous.send("signUp"))
        #expect(try #require(try await server.metric("coordinatord_journal_bytes_written_total")) > written)

        let stored = try StoredData.open(server.databasePath)
        func entries(_ client: SessionClient) throws -> Int {
            try stored.queryFirst("SELECT count(*) FROM session_journal WHERE session_id = ?1", [.text(client.id)]) {
                $0.int(0)
            } ?? 0
        }
        #expect(try entries(anonymous) == 22)
        try await server.advanceClock(seconds: 101)
        try await server.sweep()
        #expect(try entries(anonymous) == 0)
        #expect(try entries(signedIn) == 5)
        let operatorHeaders = ["Authorization": "Bearer \(OperatorAccessTests.key)"]
        #expect(
            try await Self.history(signedIn, path: "/v1/operator/sessions/\(signedIn.id)/history", headers: operatorHeaders)
                .count == 5)
        ProblemAssertions.expect(
            try await OperatorAccessTests.get(server, "/v1/operator/sessions/\(anonymous.id)/history", key: OperatorAccessTests.key),
            404, "session-not-found")
    }

    /// With 20 versions kept, a trim starts from the anchor (every 16th version) above its bound
    /// and cuts exactly there; the next one cuts where this one ended.
    @Test(arguments: Backend.allCases) func aTrimKeepsExactlyTheNewestVersions(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--journal-max-versions", "20"])
        var client = try await SessionClient.create(port: server.port)
        for index in 0..<47 { try Journey.expect200(try await client.send(index % 2 == 0 ? "signUp" : "back")) }
        #expect(try await Self.history(client).map { $0["version"] as? Int ?? 0 } == Array((29...48).reversed()))
        for index in 0..<16 { try Journey.expect200(try await client.send(index % 2 == 0 ? "back" : "signUp")) }
        #expect(try await Self.history(client).map { $0["version"] as? Int ?? 0 } == Array((45...64).reversed()))
        ProblemAssertions.expect(try await client.get("/history/44"), 404, "version-not-retained")
        // Every kept version's State reads back; the oldest kept is in full, and one in 16 after
        // it: the others keep the difference from the version before.
        for version in 45...64 { #expect(try await client.get("/history/\(version)").status == 200, "version \(version)") }
        let kept = try StoredData.open(server.databasePath).query(
            "SELECT version, snapshot FROM session_journal WHERE session_id = ?1 ORDER BY version", [.text(client.id)]
        ) { ($0.int(0), $0.blob(1)) }
        #expect(kept.map(\.0) == Array(45...64))
        // In full: compressed (0x01) or, under a kilobyte, the JSON itself.
        #expect(kept.filter { $0.1.first == 0x01 || $0.1.first == UInt8(ascii: "{") }.map(\.0) == [45, 61])
        #expect(kept.filter { $0.1.first == 0x02 }.count == 18)
    }

    /// On SQLite an event's entry is written before the row's update that names it: an update
    /// that finds another version stored takes the entry back with it.
    @Test func anEventThatFindsItsCopyOutdatedLeavesNoEntry() async throws {
        let server = try await ServerProcess.start()
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        // Behind the server's back, the stored session moves on: its copy in memory is outdated.
        let stored = try StoredData.open(server.databasePath)
        #expect(try stored.run("UPDATE sessions SET version = version + 1 WHERE id = ?1", [.text(client.id)]) == 1)
        // The server applies it over its copy (version 2), finds version 3 stored, reloads and
        // applies it again: version 4. The first attempt's entry (version 3) is gone with it.
        try Journey.expect200(try await client.send("back"))
        #expect(client.version == 4)
        let entries = try stored.query(
            "SELECT version FROM session_journal WHERE session_id = ?1 ORDER BY id", [.text(client.id)]) { $0.int(0) }
        #expect(entries == [1, 2, 4])
        #expect(try await Self.history(client).map { $0["version"] as? Int ?? 0 } == [4, 2, 1])
    }

    /// A cursor is a position in its own session's history: another session's reads nothing.
    @Test func aCursorOfAnotherSessionReadsNothing() async throws {
        let server = try await ServerProcess.start()
        var ada = try await SessionClient.create(port: server.port)
        var bob = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await ada.send("signUp"))
        try Journey.expect200(try await bob.send("signUp"))
        let adas = try await Self.history(ada)
        let cursor = try #require(adas.first?["cursor"] as? String)
        let response = try await bob.get("/history?before=\(cursor)")
        #expect(response.status == 200)
        #expect((response.json["entries"] as? [Any])?.isEmpty == true, "\(response.text)")
        #expect(try await Self.history(bob).count == 2)
    }

    @Test func theJournalCanBeSwitchedOff() async throws {
        let server = try await ServerProcess.start(arguments: ["--journal", "off"])
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("signUp"))
        #expect(try await Self.history(client).isEmpty)
        ProblemAssertions.expect(try await client.get("/history/1"), 404, "version-not-retained")
    }

    @Test func historyNeedsTheSessionsOwnToken() async throws {
        let server = try await ServerProcess.start()
        let client = try await SessionClient.create(port: server.port)
        let stranger = try await SessionClient.create(port: server.port)
        let path = "/v1/sessions/\(client.id)/history"
        ProblemAssertions.expect(try await TestHTTP.request(port: server.port, "GET", path), 401, "unauthorized")
        ProblemAssertions.expect(
            try await TestHTTP.request(port: server.port, "GET", path, headers: ["Authorization": "Bearer \(stranger.token)"]),
            404, "session-not-found")
        ProblemAssertions.expect(
            try await TestHTTP.request(
                port: server.port, "GET", path + "/1", headers: ["Authorization": "Bearer \(stranger.token)"]),
            404, "session-not-found")
    }
}
