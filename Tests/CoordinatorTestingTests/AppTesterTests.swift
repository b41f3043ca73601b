import CoordinatorTesting
import Foundation
import Navigation
import Secrets
import SQLiteStore
import Testing

/// `AppTester` runs an app's events as the server runs them: through the session service's
/// flow runner, on an in-memory database with coordinatord's tables and the app's.
@Suite struct AppTesterTests {
    typealias Vault = Probe.VaultScreen

    /// Password work and then prepared work: the flow runs three times (asking for the hash,
    /// asking for the look-up, then with both), and only the last run counts.
    @Test func passwordWorkAndPreparedWorkRunBetweenRunsOfTheFlow() async throws {
        let runs = Probe.Runs()
        var app = try await AppTester(Probe.served(runs: runs))
        try await app.send(Vault.self, .keep(.init(password: "correct horse battery staple")))
        let props = try app.props(of: Vault.self)
        #expect(runs.count.load(ordering: .relaxed) == 3)
        #expect(props.lookedUp == 42)
        let hash = try #require(props.hash)
        #expect(AppTester.passwordHasher.verify("correct horse battery staple", against: hash))
        #expect(app.version == 2)
    }

    /// `keepSnapshot` records the session's snapshot once and never overwrites it; the file
    /// restores the very session.
    @Test func aKeptSnapshotIsWrittenOnceAndRestores() async throws {
        var app = try await AppTester(Probe.served())
        try await app.send(Vault.self, .look)
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("kept-\(UUID().uuidString)/Snapshots/vault.json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        #expect(try app.keepSnapshot(at: file))
        let kept = try String(contentsOf: file, encoding: .utf8)
        #expect(kept == (try app.snapshot))
        try await app.send(Vault.self, .look)
        #expect(try !app.keepSnapshot(at: file), "a kept snapshot is the release's that recorded it")
        #expect(try String(contentsOf: file, encoding: .utf8) == kept)
        let restored = try await AppTester(Probe.served(), restoring: kept)
        #expect(try restored.snapshot == kept)
    }

    /// Exhaustive mode, as TCA's `TestStore`: a change of the State no assertion looked at fails
    /// the next event (and `finish()`), naming it with its values; asserted, it goes on.
    @Test func exhaustiveModeNamesEveryChangeNoAssertionLookedAt() async throws {
        var app = try await AppTester(Probe.served(), clock: ManualClock(start: 1_000))
        app.exhaustive = true
        app.clock.advance(by: .seconds(60))
        try await app.send(Vault.self, .look)
        let seenAt = "stack[0].screens[0].props.seenAt"
        #expect(throws: UnassertedChanges.self) { try app.finish() }
        do {
            try await app.send(Vault.self, .look)
            Issue.record("an unasserted change let the next event through")
        } catch let unasserted as UnassertedChanges {
            #expect(unasserted.changes == [seenAt: StateChange(old: 1_000, new: 1_060)])
            #expect(unasserted.description.contains("\(seenAt): 1000 → 1060"))
        }
        #expect(app.version == 2, "the refused event was not sent")
        #expect(throws: StateMismatch.self) { try app.expect(seenAt, 1_000) }
        try app.expect(seenAt, 1_060)
        try app.finish()

        // An event that changes nothing needs no assertion; asserting a whole subtree covers its leaves.
        try await app.send(Vault.self, .look)
        try app.finish()
        app.clock.advance(by: .seconds(1))
        try await app.send(Vault.self, .look)
        try app.expect("stack[0].screens[0].props", ["seenAt": 1_061, "hash": nil, "lookedUp": nil, "user": nil])
        try app.finish()
        app.clock.advance(by: .seconds(1))
        try await app.send(Vault.self, .look)
        app.skipChanges()
        try await app.send(Vault.self, .look)
    }

    /// The clock stands still until the test moves it; flows see it as the request's time.
    @Test func theManualClockMovesOnlyWhenTold() async throws {
        var app = try await AppTester(Probe.served(), clock: ManualClock(start: 1_000))
        #expect(try app.props(of: Vault.self).seenAt == 1_000)
        try await app.send(Vault.self, .look)
        #expect(try app.props(of: Vault.self).seenAt == 1_000)
        app.clock.advance(by: .seconds(60))
        try await app.send(Vault.self, .look)
        #expect(try app.props(of: Vault.self).seenAt == 1_060)
    }

    /// A refused event changes nothing (tree, version, its plain writes), but its lasting writes
    /// commit on their own, once, as the session service commits them.
    @Test func aRefusedEventCommitsOnlyItsLastingWrites() async throws {
        var app = try await AppTester(Probe.served())
        let before = app.state
        await #expect(throws: EventRejection.self) { try await app.send(Vault.self, .refuse) }
        #expect(app.state == before)
        let notes = try app.database.query("SELECT note FROM probe_notes", []) { $0.string(0) }
        #expect(notes == ["lasting"])
    }

    /// The State as a client receives it, whole.
    @Test func theStateIsWhatAClientReceives() async throws {
        var app = try await AppTester(Probe.served(), platform: .web, clock: ManualClock(start: 7))
        try await app.send(Vault.self, .signIn(.init(id: 3)))
        let events: [JSONValue] = ["keep", "look", "refuse", "signIn", "endOthers", "forget"].map { .string($0) }
        #expect(
            app.state == [
                "id": "session-1", "version": 2, "user": ["id": 3, "displayName": "Member 3"], "top": "s1",
                "stack": [
                    [
                        "presentation": "root",
                        "screens": [
                            [
                                "id": "s1", "name": "vault", "events": .array(events),
                                "props": ["hash": nil, "lookedUp": nil, "seenAt": 7, "user": 3],
                            ]
                        ],
                    ]
                ],
            ])
    }

    /// Sessions share the database and the clock; ending a user's other sessions ends them here.
    @Test func endingOtherSessionsEndsThem() async throws {
        var first = try await AppTester(Probe.served())
        var second = try await first.newSession()
        var stranger = try await first.newSession()
        try await first.send(Vault.self, .signIn(.init(id: 1)))
        try await second.send(Vault.self, .signIn(.init(id: 1)))
        try await stranger.send(Vault.self, .signIn(.init(id: 2)))
        try await first.send(Vault.self, .endOthers)
        await #expect(throws: SessionEnded.self) { try await second.send(Vault.self, .look) }
        try await stranger.send(Vault.self, .look)
        try await first.send(Vault.self, .look)
        #expect(second.clock === first.clock)
    }

    /// State a coordinator keeps out of its snapshot would be lost by a restart: the event fails.
    @Test func stateLeftOutOfTheSnapshotFailsTheEvent() async throws {
        var app = try await AppTester(Probe.served())
        await #expect(throws: NavigationError.self) { try await app.send(Vault.self, .forget) }
        #expect(app.version == 1)
    }

    /// A snapshot an earlier release stored restores as the server restores it; one the server
    /// would replace by a fresh start throws what the server would log instead.
    @Test func aStoredSnapshotRestoresOrSaysWhyItWouldStartOver() async throws {
        var app = try await AppTester(Probe.served(), clock: ManualClock(start: 1_000))
        try await app.send(Vault.self, .signIn(.init(id: 7)))
        let snapshot = try app.snapshot
        var restored = try await AppTester(Probe.served(), restoring: snapshot, clock: ManualClock(start: 2_000))
        #expect(restored.tree == app.tree)
        #expect(try restored.props(of: Vault.self).user == 7)
        try await restored.send(Vault.self, .look)
        #expect(try restored.props(of: Vault.self).seenAt == 2_000)

        let renamed = snapshot.replacingOccurrences(of: #""type":"Vault""#, with: #""type":"Safe""#)
        #expect(renamed != snapshot)
        await #expect(throws: SnapshotError.unknownCoordinator("Safe")) {
            try await AppTester(Probe.served(), restoring: renamed)
        }
        let bumped = snapshot.replacingOccurrences(of: #""version":1"#, with: #""version":0"#)
        await #expect(throws: SnapshotError.schemaChanged("Vault", stored: 0, current: 1)) {
            try await AppTester(Probe.served(), restoring: bumped)
        }
    }

    /// A restored session whose user has no row in the app's user table would start over signed
    /// out at its first event on the server: restoring it says so instead of testing that.
    @Test func aRestoredSessionWhoseUserIsMissingSaysWhy() async throws {
        var app = try await AppTester(Probe.served(members: true))
        try app.database.run("INSERT INTO probe_members (id) VALUES (7)", [])
        try await app.send(Vault.self, .signIn(.init(id: 7)))
        let snapshot = try app.snapshot
        await #expect(throws: RestoredUserMissing(user: 7, table: "probe_members")) {
            try await AppTester(Probe.served(members: true), restoring: snapshot)
        }
        let database = try SQLiteConnection(path: ":memory:")
        var restored = try await AppTester(Probe.served(members: true), database: database)
        try restored.database.run("INSERT INTO probe_members (id) VALUES (7)", [])
        restored = try await AppTester(Probe.served(members: true), restoring: snapshot, database: database)
        #expect(try restored.props(of: Vault.self).user == 7)
    }

    /// Typed sends and props name the screen they expect on top.
    @Test func aTypedSendToAnotherScreenThrows() async throws {
        enum Other: ScreenType {
            static let name = "other"
            static let summary = "Not shown."
            struct Props: Codable, Sendable {}
        }
        let app = try await AppTester(Probe.served())
        #expect(throws: NavigationError.self) { try app.props(of: Other.self) }
        #expect(try app.rows(in: "sessions") == 0)  // coordinatord's own tables are there
        #expect(try app.rows(in: "probe_notes") == 0)
        #expect(throws: NavigationError.self) { try app.rows(in: "probe_notes; DROP TABLE sessions") }
    }
}
