import Foundation
import TestSupport
import Testing

/// The deploy check and flow versioning (issue 23), with a test-only app in three builds
/// (`Tests/DeployCheckApp`): today's `v1`, and `v2` whose coordinator gained a field, without or
/// with a migration from the v1 form.
@Suite struct DeployCheckTests {
    static var binaryPath: String {
        URL(fileURLWithPath: ServerProcess.binaryPath).deletingLastPathComponent().appendingPathComponent("DeployCheckApp").path
    }

    static let code = "SECRET-CODE-778899"

    static func serve(_ database: String, variant: String) async throws -> ServerProcess {
        try await ServerProcess.start(
            executable: binaryPath, commandLine: ["serve", "--port", "0", "--database", database, "--log-level", "warning"],
            databasePath: database, environment: ["DEPLOY_CHECK_VARIANT": variant])
    }

    /// A database made by today's build: three sessions that counted, pushed and popped a detail,
    /// and redeemed a code; returns the sessions (their final count is 12).
    static func databaseOfToday(_ backend: Backend) async throws -> (String, [SessionClient]) {
        let database = try await backend.newDatabase()
        let server = try await serve(database, variant: "v1")
        var clients: [SessionClient] = []
        for _ in 0..<3 {
            var client = try await SessionClient.create(port: server.port)
            for (event, payload) in [
                ("increment", nil), ("detail", nil), ("back", nil), ("redeem", ["code": code]), ("increment", nil),
            ] as [(String, [String: Any]?)] {
                try Journey.expect200(try await client.send(event, payload))
            }
            #expect(client.topScreen.props["count"] as? Int == 12)
            clients.append(client)
        }
        #expect(try await server.stop() == 0)
        return (database, clients)
    }

    static func check(_ database: String, variant: String) async throws -> (status: Int32, output: String) {
        try await TestHTTP.offPool {
            try ChildProcess.run(
                binaryPath, ["check-deploy", "--database", database, "--sample", "2", "--batch-size", "2"],
                environment: ["DEPLOY_CHECK_VARIANT": variant])
        }
    }

    @Test(arguments: Backend.allCases) func theCheckCountsSessionsAWithoutMigrationBuildWouldLose(backend: Backend) async throws {
        let (database, _) = try await Self.databaseOfToday(backend)

        let same = try await Self.check(database, variant: "v1")
        #expect(same.status == 0, "\(same.output)")
        #expect(same.output.contains("sessions: 3\n"), "\(same.output)")
        #expect(same.output.contains("decode unchanged: 3\n"))
        #expect(same.output.contains("would be lost: 0\n"))
        // Two sessions' journals replayed: increment, open, back, increment each (the redeem's
        // code is not journaled, so it cannot be replayed), the same navigation every time.
        #expect(same.output.contains("replayed: 8 events of 2 sessions\n"), "\(same.output)")
        #expect(same.output.contains("navigation differs: 0\n"))
        #expect(same.output.contains("not replayable, secret or undeclared payload fields are not journaled: 2"))

        let gained = try await Self.check(database, variant: "v2")
        #expect(gained.status == 2, "\(gained.output)")
        #expect(gained.output.contains("would be lost: 3\n"), "\(gained.output)")
        #expect(gained.output.contains("lost, counter stored with schema 1, this build has 2 and no migration from it: 3"))

        let migrating = try await Self.check(database, variant: "v2-migrating")
        #expect(migrating.status == 0, "\(migrating.output)")
        #expect(migrating.output.contains("decode after a migration: 3\n"), "\(migrating.output)")
        #expect(migrating.output.contains("would be lost: 0\n"))
        #expect(migrating.output.contains("replayed: 8 events of 2 sessions\n"))
        #expect(migrating.output.contains("navigation differs: 0\n"))

        // A build that navigates differently: `detail` no longer shows the detail screen. Nothing is lost,
        // but each replayed `detail` is reported with the stack users saw and the one they would see.
        let detour = try await Self.check(database, variant: "v1-detour")
        #expect(detour.status == 0, "\(detour.output)")
        #expect(detour.output.contains("navigation differs: 2\n"), "\(detour.output)")
        #expect(detour.output.contains("v2→v3 detail: saw root:[counter(increment,detail,redeem) detail()], now root:[counter(increment,detail,redeem)]"))

        // The check wrote nothing: today's build still serves every session as it was.
        let server = try await Self.serve(database, variant: "v1")
        #expect(try await TestHTTP.request(port: server.port, "GET", "/metrics").status == 200)
        try await server.stop()
    }

    /// After a breaking deploy an operator sees the sessions the new build cannot restore, with
    /// the reason they would start over (not "no such session"), and the server logs it.
    @Test(arguments: Backend.allCases) func anOperatorSeesWhyASessionWouldStartOver(backend: Backend) async throws {
        let (database, clients) = try await Self.databaseOfToday(backend)
        let server = try await ServerProcess.start(
            executable: Self.binaryPath,
            commandLine: [
                "serve", "--port", "0", "--database", database, "--log-level", "warning", "--operator-key-file",
                try OperatorAccessTests.keyFile(),
            ], databasePath: database, environment: ["DEPLOY_CHECK_VARIANT": "v2"])
        for path in ["", "/tree"] {
            let read = try await OperatorAccessTests.get(
                server, "/v1/operator/sessions/\(clients[0].id)\(path)", key: OperatorAccessTests.key)
            ProblemAssertions.expect(read, 409, "session-would-start-over")
            #expect(read.json["version"] as? Int == clients[0].version)
            #expect((read.json["reason"] as? String ?? "").contains("counter was stored with schema 1, this build has 2"), "\(read.text)")
        }
        ProblemAssertions.expect(
            try await OperatorAccessTests.get(server, "/v1/operator/sessions/nosuch", key: OperatorAccessTests.key), 404,
            "session-not-found")
        try await server.stop()
        #expect(server.log.contains("operator read of a session that would start over"))
    }

    /// A session that falls back to a fresh start after a breaking deploy reuses no screen id:
    /// a tap on a screen the client still shows from before is a stale tap with the new State.
    @Test func aFallbackReusesNoScreenID() async throws {
        let (database, clients) = try await Self.databaseOfToday(.sqlite)
        let old = clients[1]
        let oldIDs = Set(SessionClient.screens(in: old.state).compactMap { $0["id"] as? String })
        let server = try await Self.serve(database, variant: "v2")
        var client = old.moved(to: server.port)
        #expect(try await client.refresh().status == 200)
        let newIDs = Set(SessionClient.screens(in: client.state).compactMap { $0["id"] as? String })
        #expect(!newIDs.isEmpty && newIDs.isDisjoint(with: oldIDs), "\(oldIDs) then \(newIDs)")
        var stale = old.moved(to: server.port)
        let tap = try await stale.send("increment")
        ProblemAssertions.expect(tap, 409, "stale-screen")
        try await server.stop()
    }

    /// A field that no longer decodes is named, with the coordinator type, the field and an
    /// example session; `--json` gives a pipeline the same report as one object.
    @Test func aLostSessionsCauseIsNamedInTextAndJSON() async throws {
        let (database, clients) = try await Self.databaseOfToday(.sqlite)
        let checked = try await Self.check(database, variant: "v2-unversioned")
        #expect(checked.status == 2, "\(checked.output)")
        #expect(checked.output.contains("lost, a field no longer decodes, counter.state.label: missing: 3 (for example session "), "\(checked.output)")
        let json = try await TestHTTP.offPool {
            try ChildProcess.run(
                Self.binaryPath, ["check-deploy", "--database", database, "--json"],
                environment: ["DEPLOY_CHECK_VARIANT": "v2-unversioned"])
        }
        #expect(json.status == 2)
        let report = SessionClient.parse(json.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(report["sessions"] as? Int == 3, "\(json.output)")
        let lost = report["lost"] as? [[String: Any]] ?? []
        #expect(lost.first?["reason"] as? String == "a field no longer decodes, counter.state.label: missing")
        #expect(lost.first?["count"] as? Int == 3)
        #expect(clients.map(\.id).contains(lost.first?["exampleSession"] as? String ?? ""))
    }

    /// Events whose flows write models (a post) are replayed too, on a scratch copy (SQLite) or in
    /// transactions rolled back (PostgreSQL): the live data is untouched, a difference that comes
    /// from today's data is told apart from one of the build, and the one registration step
    /// whose state held a `@Confidential` hash is said to be not replayable.
    @Test(arguments: Backend.allCases) func eventsThatWriteModelsAreReplayedOnAScratchCopy(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        try await Journey.register(&client, email: "replay@example.com", displayName: "Replay")
        for text in ["first post", "second post"] {
            try Journey.expect200(try await client.send("compose"))
            try Journey.expect200(try await client.send("submit", ["text": text]))
        }
        try Journey.expect200(try await client.send("selectTab", ["tab": "profile"]))
        try await server.stop()

        let checked = try await TestHTTP.offPool {
            try ChildProcess.run(ServerProcess.binaryPath, ["check-deploy", "--database", server.databasePath])
        }
        #expect(checked.status == 0, "\(checked.output)")
        // signUp, the e-mail, compose, submit, compose, submit, selectTab: all but the password
        // (a secret payload) and finish (its state held the @Confidential hash).
        #expect(checked.output.contains("replayed: 7 events of 1 sessions\n"), "\(checked.output)")
        #expect(checked.output.contains("navigation differs: 0\n"), "\(checked.output)")
        #expect(!checked.output.contains("the flow writes models"), "\(checked.output)")
        // The e-mail step ran over today's data, where that e-mail is taken now.
        #expect(checked.output.contains("differs over today's data (the flow read or wrote data, which may have changed): 1"))
        #expect(checked.output.contains("not replayable, its state held a @Confidential value, which the journal does not keep: 1"))
        let posts = try StoredData.open(server.databasePath).queryFirst("SELECT count(*) FROM posts", []) { $0.int(0) }
        #expect(posts == 2, "the live database is untouched")
    }

    /// The journal records each event's model writes (statements as written and rows changed,
    /// no values); a build that writes differently is named per event, with then and now.
    @Test(arguments: Backend.allCases) func modelWritesThatABuildMakesDifferentlyAreNamed(backend: Backend) async throws {
        let (database, _) = try await Self.databaseOfToday(backend)
        let stored = try StoredData.open(database).query(
            "SELECT event, writes FROM session_journal WHERE event IN ('increment', 'detail') ORDER BY id LIMIT 2", []
        ) { ($0.string(0), $0.optionalString(1)) }
        #expect(stored.first?.0 == "increment")
        #expect(stored.first?.1 == #"[{"rows":1,"sql":"INSERT INTO tallies (at) VALUES (?1)"}]"#)
        #expect(stored.last?.1 == "[]", "an event that wrote nothing recorded so")

        let same = try await Self.check(database, variant: "v1")
        #expect(!same.output.contains("model writes differ"), "\(same.output)")
        let twice = try await Self.check(database, variant: "v1-tallies-twice")
        // Two sessions replayed, two increments each.
        #expect(twice.output.contains("model writes differ: 4\n"), "\(twice.output)")
        #expect(
            twice.output.contains(
                "increment: wrote [INSERT INTO tallies (at) VALUES (?1) (1 row)], now [INSERT INTO tallies (at) VALUES (?1) (1 row); INSERT INTO tallies (at) VALUES (?1) (1 row)]"
            ), "\(twice.output)")
        #expect(twice.output.contains("navigation differs: 0\n"), "the screens are the same: only the writes differ")
        let tallies = try StoredData.open(database).queryFirst("SELECT count(*) FROM tallies", []) { $0.int(0) }
        #expect(tallies == 6, "the replays' writes never reach the live data")
    }

    /// Effects still waiting when a build without their handler would take over are named, and
    /// stop the deploy (they would fail at their next run).
    @Test func pendingEffectsThisBuildCannotRunStopTheDeploy() async throws {
        let (database, _) = try await Self.databaseOfToday(.sqlite)
        let clean = try await Self.check(database, variant: "v1")
        #expect(clean.status == 0 && clean.output.contains("effects pending: 0\n"), "\(clean.output)")
        _ = try StoredData.open(database).run(
            """
            INSERT INTO effects (id, session_id, coordinators, name, request, due_at, created_at)
            VALUES ('e1', 's', '1', 'retiredEffect', '{}', 0, 0), ('e2', 's', '1', 'retiredEffect', '{}', 0, 0)
            """, [])
        let checked = try await Self.check(database, variant: "v1")
        #expect(checked.status == 2, "\(checked.output)")
        #expect(checked.output.contains("effects pending that this build has no handler for (they would fail): 2\n  retiredEffect: 2"))
    }

    /// A journal whose chain loops (an entry naming itself as the one before) is reported as
    /// damaged and the check ends; the server's own reads of that history end too.
    @Test(arguments: Backend.allCases) func aLoopingJournalIsReportedAndEveryWalkEnds(backend: Backend) async throws {
        let (database, clients) = try await Self.databaseOfToday(backend)
        // The first session by id: among those the check samples (`--sample 2`, in id order).
        let looping = try #require(clients.min { $0.id < $1.id })
        let stored = try StoredData.open(database)
        _ = try stored.run("UPDATE session_journal SET previous_id = id WHERE session_id = ?1", [.text(looping.id)])
        let checked = try await withDeadline("check-deploy on a looping journal") {
            try await Self.check(database, variant: "v1")
        }
        #expect(checked.status == 0, "\(checked.output)")
        #expect(checked.output.contains("damaged journals (not replayed): 1"), "\(checked.output)")
        #expect(checked.output.contains("session \(looping.id): entry"), "\(checked.output)")

        let server = try await Self.serve(database, variant: "v1")
        let client = looping.moved(to: server.port)
        let history = try await withDeadline("the history of a looping journal") { try await client.get("/history") }
        #expect(history.status == 200)
        let past = try await withDeadline("a past State of a looping journal") { try await client.get("/history/2") }
        ProblemAssertions.expect(past, 404, "version-not-retained")
        try await server.stop()
    }

    /// Pointed at a file that is no coordinatord database, the check says so, and never asks
    /// for a writable path (it only reads).
    @Test func aDatabaseOfSomethingElseIsNamedAsSuch() async throws {
        let path = ServerProcess.temporaryDatabasePath()
        let other = try StoredData.open(path)
        try other.execute("CREATE TABLE notes (body TEXT)")
        let checked = try await Self.check(path, variant: "v1")
        #expect(checked.status != 0)
        #expect(checked.output.contains("is not a coordinatord database"), "\(checked.output)")
        #expect(!checked.output.contains("writable"), "\(checked.output)")
        #expect(!checked.output.contains("no such table"), "\(checked.output)")
    }

    /// A build with a migration upgrades live sessions; one without falls back to a fresh start,
    /// counted in `/metrics`. The app-marked secret never reaches the database.
    @Test func aMigrationUpgradesLiveSessionsAndTheFallbackIsCounted() async throws {
        let (database, clients) = try await Self.databaseOfToday(.sqlite)
        #expect(try await JournalTests.databaseContains(Self.code, backend: .sqlite, path: database) == false)
        let copy = database + ".copy.sqlite"
        try FileManager.default.copyItem(atPath: database, toPath: copy)
        if FileManager.default.fileExists(atPath: database + "-wal") {
            try FileManager.default.copyItem(atPath: database + "-wal", toPath: copy + "-wal")
        }

        let upgraded = try await Self.serve(database, variant: "v2-migrating")
        var client = clients[0].moved(to: upgraded.port)
        try Journey.expect200(try await client.refresh())
        #expect(client.topScreen.props["count"] as? Int == 12)
        try Journey.expect200(try await client.send("increment"))
        #expect(client.topScreen.props["count"] as? Int == 13)
        #expect(try await upgraded.metric("coordinatord_snapshot_fallbacks_total") == nil)
        try await upgraded.stop()

        let reset = try await Self.serve(copy, variant: "v2")
        client = clients[0].moved(to: reset.port)
        try Journey.expect200(try await client.refresh())
        #expect(client.topScreen.props["count"] as? Int == 0)
        #expect(try await reset.metric("coordinatord_snapshot_fallbacks_total") == 1)
        let history = try await JournalTests.history(client)
        #expect(history.first?["event"] as? String == "(fallback)")
        try await reset.stop()
    }
}
