import Foundation
import PostgresStore
import SQLiteStore
import Store
import TestSupport
import Testing

/// What the journal keeps of a user once they delete their account or a session (issue 23):
/// nothing. An account deleted erases the history of every session its user was signed in to,
/// signed out, ended or expired since; a deleted session leaves no history; an unknown session's
/// history is a 404, for operators as for users.
@Suite struct JournalErasureTests {
    // Ada's details, written so that no four of their bytes in a row occur elsewhere in a snapshot
    // (the snapshots are LZ4-packed: a run seen before would be stored as a back-reference).
    static let ada = (email: "qzadaxw@lovelace.test", name: "Augusta Kwyjibo", post: "Qrv notes on Bernoulli numbers")
    static let grace = (email: "gxhopperq@cobol.test", name: "Grace Vjmzqu", post: "Zqp first actual bug")
    static let password = Journey.password

    static func signUp(_ client: inout SessionClient, _ who: (email: String, name: String, post: String)) async throws {
        for (event, payload) in [
            ("signUp", nil), ("next", ["email": who.email]), ("next", ["password": password]),
            ("finish", ["displayName": who.name]), ("compose", nil), ("submit", ["text": who.post]),
        ] as [(String, [String: Any]?)] {
            try Journey.expect200(try await client.send(event, payload))
        }
    }

    static func logIn(_ client: inout SessionClient, _ email: String) async throws {
        try Journey.expect200(try await client.send("logIn"))
        try Journey.expect200(try await client.send("submit", ["email": email, "password": password]))
    }

    static func settings(_ client: inout SessionClient, then events: [(String, [String: Any]?)]) async throws {
        try Journey.expect200(try await client.send("selectTab", ["tab": "profile"]))
        try Journey.expect200(try await client.send("openSettings"))
        for (event, payload) in events { try Journey.expect200(try await client.send(event, payload)) }
    }

    static func operatorGet(_ server: ServerProcess, _ path: String) async throws -> TestResponse {
        try await TestHTTP.request(
            port: server.port, "GET", "/v1/operator/sessions/" + path,
            headers: ["Authorization": "Bearer \(OperatorAccessTests.key)"])
    }

    static func operatorEntries(_ server: ServerProcess, _ id: String) async throws -> [String] {
        let response = try await operatorGet(server, id + "/history?limit=200")
        #expect(response.status == 200, "\(response.text)")
        return (response.json["entries"] as? [[String: Any]] ?? []).map { $0["event"] as? String ?? "" }
    }

    @Test(arguments: Backend.allCases) func deletingAnAccountErasesTheHistoryOfEverySessionItWasSignedInTo(
        backend: Backend
    ) async throws {
        let server = try await ServerProcess.start(
            backend: backend,
            arguments: [
                "--test-hooks", "--operator-key-file", try OperatorAccessTests.keyFile(), "--session-idle-timeout", "1000",
            ])
        // Grace's data stays: it shows the search below finds what is there. She signs up first:
        // what another user's session was shown (Ada's post, her name on it) is that session's
        // history, kept for the retention; this test is about Ada's own sessions.
        var grace = try await SessionClient.create(port: server.port)
        try await Self.signUp(&grace, Self.grace)
        // Ada signs up and posts on a session that then expires (its journal outlives it, for
        // the retention).
        var expired = try await SessionClient.create(port: server.port)
        try await Self.signUp(&expired, Self.ada)
        try await server.advanceClock(seconds: 1001)
        try await server.sweep()
        #expect(try await Self.operatorEntries(server, expired.id).contains("finish"), "an expired session's history is kept")
        // She signs in and out again: that session no longer names her.
        var signedOut = try await SessionClient.create(port: server.port)
        try await Self.logIn(&signedOut, Self.ada.email)
        try await Self.settings(&signedOut, then: [("signOut", nil)])
        #expect(try await Self.operatorEntries(server, signedOut.id).contains("submit"))
        // Signed in on two more sessions; she deletes her account from one, which ends the other.
        var other = try await SessionClient.create(port: server.port)
        try await Self.logIn(&other, Self.ada.email)
        var deleting = try await SessionClient.create(port: server.port)
        try await Self.logIn(&deleting, Self.ada.email)
        try await Self.settings(&deleting, then: [("deleteAccount", nil), ("confirm", ["password": Self.password])])
        #expect(deleting.topScreen.name == "firstRun")

        // The sessions that live on have no history; those that ended are unknown.
        #expect(try await Self.operatorEntries(server, signedOut.id) == [])
        #expect(try await Self.operatorEntries(server, deleting.id) == [])
        for ended in [expired.id, other.id] {
            ProblemAssertions.expect(try await Self.operatorGet(server, ended + "/history"), 404, "session-not-found")
            ProblemAssertions.expect(try await Self.operatorGet(server, ended + "/history/2"), 404, "session-not-found")
        }
        #expect(try await Self.operatorEntries(server, grace.id).contains("finish"))
        // Ada's session goes on signed out; what it does next is journaled again.
        try Journey.expect200(try await deleting.send("signUp"))
        #expect(try await Self.operatorEntries(server, deleting.id) == ["signUp"])

        // The texts her deletion asked to erase from other sessions wait for the sweep, which
        // erases them and its request.
        try await server.sweep()
        try await server.stop()
        for text in [Self.ada.email, Self.ada.name, Self.ada.post] {
            let found = try Self.columnsContaining(text, database: server.databasePath)
            #expect(found == [], "\(text) in \(found)")
        }
        for text in [Self.grace.email, Self.grace.name, Self.grace.post] {
            #expect(try Self.columnsContaining(text, database: server.databasePath).contains("session_journal.payload"), "\(text)")
        }
    }

    /// What another user's session was shown of Ada (her post, her name on it) leaves that
    /// session's journal by the sweep after she deletes her account: the entries keep their
    /// events, their States that showed her are no longer retained, and the other user's own
    /// data stays.
    @Test(arguments: Backend.allCases) func deletingAnAccountErasesWhatOtherSessionsWereShownOfIt(
        backend: Backend
    ) async throws {
        let server = try await ServerProcess.start(
            backend: backend, arguments: ["--test-hooks", "--operator-key-file", try OperatorAccessTests.keyFile()])
        var ada = try await SessionClient.create(port: server.port)
        try await Self.signUp(&ada, Self.ada)
        var grace = try await SessionClient.create(port: server.port)
        try await Self.signUp(&grace, Self.grace)
        #expect(grace.stateText.contains(Self.ada.post), "Grace's timeline shows Ada's post")
        try Journey.expect200(try await grace.send("selectTab", ["tab": "profile"]))
        let graceEvents = try await Self.operatorEntries(server, grace.id)
        var showedAda: [Int] = []
        for version in 1...grace.version {
            let state = try await Self.operatorGet(server, "\(grace.id)/history/\(version)")
            if state.status == 200 && state.text.contains(Self.ada.post) { showedAda.append(version) }
        }
        #expect(!showedAda.isEmpty)
        #expect(try Self.columnsContaining(Self.ada.post, database: server.databasePath).contains("session_journal.snapshot"))

        try await Self.settings(&ada, then: [("deleteAccount", nil), ("confirm", ["password": Self.password])])
        try await server.sweep()

        for text in [Self.ada.post, Self.ada.name, Self.ada.email] {
            let found = try Self.columnsContaining(text, database: server.databasePath).filter { !$0.hasPrefix("sessions.") }
            #expect(found == [], "\(text) in \(found)")
        }
        #expect(try await Self.operatorEntries(server, grace.id) == graceEvents, "Grace's events are all still there")
        for version in showedAda {
            ProblemAssertions.expect(
                try await Self.operatorGet(server, "\(grace.id)/history/\(version)"), 404, "version-not-retained")
        }
        #expect(try Self.columnsContaining(Self.grace.post, database: server.databasePath).contains("session_journal.payload"))
        try await server.stop()
    }

    @Test(arguments: Backend.allCases) func aDeletedSessionLeavesNoHistory(backend: Backend) async throws {
        let server = try await ServerProcess.start(
            backend: backend, arguments: ["--operator-key-file", try OperatorAccessTests.keyFile()])
        var client = try await SessionClient.create(port: server.port)
        var kept = try await SessionClient.create(port: server.port)
        try await Self.signUp(&client, Self.ada)
        try Journey.expect200(try await kept.send("signUp"))
        #expect(try await Self.operatorEntries(server, client.id).count == 7)
        let deleted = try await TestHTTP.request(
            port: server.port, "DELETE", "/v1/sessions/\(client.id)", headers: ["Authorization": "Bearer \(client.token)"])
        #expect(deleted.status == 204)
        ProblemAssertions.expect(try await Self.operatorGet(server, client.id + "/history"), 404, "session-not-found")
        ProblemAssertions.expect(try await Self.operatorGet(server, client.id + "/history/2"), 404, "session-not-found")
        #expect(try await Self.operatorEntries(server, kept.id) == ["signUp", "(start)"])
        try await server.stop()
        let connection = try StoredData.open(server.databasePath)
        let rows = try connection.queryFirst(
            "SELECT count(*) FROM session_journal WHERE session_id = ?1", [.text(client.id)]
        ) { $0.int(0) }
        #expect(rows == 0)
        #expect(try Self.listedUsers(client.id, connection) == [], "a deleted session is listed under no user")
    }

    @Test(arguments: Backend.allCases) func aSessionIsListedOnceUnderEachUserUntilItsJournalIsGone(
        backend: Backend
    ) async throws {
        let server = try await ServerProcess.start(
            backend: backend, arguments: ["--test-hooks", "--journal-retention", "100", "--session-idle-timeout", "1000"])
        var client = try await SessionClient.create(port: server.port)
        try await Self.signUp(&client, Self.ada)
        try await Self.settings(&client, then: [("done", nil)])
        let connection = try StoredData.open(server.databasePath)
        let ada = try connection.queryFirst("SELECT user_id FROM sessions WHERE id = ?1", [.text(client.id)]) { $0.int64(0) }
        let entries = try connection.queryFirst(
            "SELECT count(*) FROM session_journal WHERE session_id = ?1 AND user_id = ?2", [.text(client.id), .integer(ada ?? 0)]
        ) { $0.int(0) }
        #expect(ada != nil && (entries ?? 0) >= 4, "\(entries ?? 0) entries name her")
        #expect(try Self.listedUsers(client.id, connection) == [ada], "one row, however many entries name her")

        // Past the retention age the sweep deletes the entries, and the session's listing with them.
        try await server.advanceClock(seconds: 101)
        try await server.sweep()
        #expect(try Self.listedUsers(client.id, connection) == [])
        // Its next entry lists it again (the session lives on: the idle timeout is 1,000 s).
        try Journey.expect200(try await client.send("selectTab", ["tab": "home"]))
        #expect(try Self.listedUsers(client.id, connection) == [ada])
    }

    /// On SQLite an event lists its session under its user only when the session does not know
    /// itself listed: once per user, and again after the journal's deletions may have removed
    /// the listing (here the retention sweep). A trigger counts the listing statements the
    /// server runs, whether or not they insert a row.
    @Test func aSessionIsListedOnceNotWithEveryEvent() async throws {
        let server = try await ServerProcess.start(
            backend: .sqlite, arguments: ["--test-hooks", "--journal-retention", "100", "--session-idle-timeout", "1000"])
        var client = try await SessionClient.create(port: server.port)
        try await Self.signUp(&client, Self.ada)
        let connection = try StoredData.open(server.databasePath)
        try connection.run("CREATE TABLE listing_attempts (session_id TEXT)", [])
        try connection.run(
            """
            CREATE TRIGGER count_listing_attempts BEFORE INSERT ON journal_users
            BEGIN INSERT INTO listing_attempts VALUES (new.session_id); END
            """, [])
        let attempts = { try connection.queryFirst("SELECT count(*) FROM listing_attempts", []) { $0.int(0) } }
        for tab in ["profile", "home", "profile"] { try Journey.expect200(try await client.send("selectTab", ["tab": tab])) }
        #expect(try attempts() == 0, "the session was listed when it signed up")
        let ada = try Self.listedUsers(client.id, connection)
        #expect(ada.count == 1)

        try await server.advanceClock(seconds: 101)
        try await server.sweep()
        #expect(try Self.listedUsers(client.id, connection) == [])
        try Journey.expect200(try await client.send("selectTab", ["tab": "home"]))
        try Journey.expect200(try await client.send("selectTab", ["tab": "profile"]))
        #expect(try attempts() == 1, "listed again once after the sweep")
        #expect(try Self.listedUsers(client.id, connection) == ada)
        try await server.stop()
    }

    /// An ended session's history stays readable by its journal's newest entry, kept when its
    /// row went; once the sweep deleted the journal, the session is unknown. (A session no one
    /// signed in to keeps no journal past its life: `JournalTests.anAnonymousSessionsJournalEndsWithIt`.)
    @Test(arguments: Backend.allCases) func anEndedSessionIsKnownUntilItsJournalIsSwept(backend: Backend) async throws {
        let server = try await ServerProcess.start(
            backend: backend,
            arguments: [
                "--test-hooks", "--operator-key-file", try OperatorAccessTests.keyFile(), "--session-idle-timeout", "10",
                "--journal-retention", "100",
            ])
        var client = try await SessionClient.create(port: server.port)
        try await Journey.register(&client, email: "ended@example.com", displayName: "Ended")
        try await server.advanceClock(seconds: 11)
        try await server.sweep()
        ProblemAssertions.expect(try await client.get(""), 401, "unauthorized")
        #expect(try await Self.operatorEntries(server, client.id) == ["finish", "next", "next", "signUp", "(start)"])
        #expect(try await Self.operatorGet(server, client.id + "/history/2").status == 200)

        try await server.advanceClock(seconds: 100)
        try await server.sweep()
        ProblemAssertions.expect(try await Self.operatorGet(server, client.id + "/history"), 404, "session-not-found")
        let heads = try StoredData.open(server.databasePath).queryFirst(
            "SELECT count(*) FROM journal_heads WHERE session_id = ?1", [.text(client.id)]) { $0.int(0) }
        #expect(heads == 0)
    }

    /// A journal written before migrations 14 and 15 is chained and listed by them: each entry
    /// names its session's previous one, the session's row (or, for a session that ended, a
    /// row of `journal_heads`) its newest, and each session is listed under the users its
    /// entries name.
    @Test(arguments: Backend.allCases) func theMigrationsChainAndListEarlierEntries(backend: Backend) async throws {
        let database = try await backend.newDatabase()
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = repository.appendingPathComponent("migrations/\(backend == .sqlite ? "sqlite" : "postgresql")").path
        let earlier = try Migration.load(directory: folder).filter { $0.version <= 13 }
        #expect(earlier.last?.version == 13)
        let connection: any SQLConnection
        switch backend {
        case .sqlite:
            let sqlite = try SQLiteConnection(path: database)
            _ = try Migrator(migrations: earlier).migrate(sqlite)
            connection = sqlite
        case .postgresql:
            let postgres = try PostgresConnection(url: database)
            _ = try PostgresMigrator(migrations: earlier).migrate(postgres)
            connection = postgres
        }
        // s2 lives on (its row is kept); s1 and s3 ended.
        try connection.run(
            """
            INSERT INTO sessions (id, token_hash, version, snapshot, created_at, last_used_at, expires_at, expires_hour)
            VALUES ('s2', ?1, 3, ?1, 0, 0, 0, 0)
            """, [.blob([1, 2, 3])])
        for (session, user) in [("s1", 7), ("s2", nil), ("s1", 7), ("s1", 8), ("s3", 7), ("s2", nil)] as [(String, Int64?)] {
            try connection.run(
                """
                INSERT INTO session_journal (session_id, version_before, version, at, node, screen, screen_name, event,
                    payload, redacted, replay, user_id) VALUES (?1, 1, 2, 0, 'n', '', '', 'e', 'null', '[]', 0, ?2)
                """, [.text(session), user.map { .integer($0) } ?? .null])
        }
        // Test hooks: no periodic sweep, which would delete these entries (written at time 0, long
        // past the journal's retention) and the expired row if the test waited a minute.
        let server = try await ServerProcess.start(databasePath: database, arguments: ["--test-hooks"])
        let listed = try connection.query(
            "SELECT session_id, user_id FROM journal_users ORDER BY session_id, user_id"
        ) { "\($0.string(0))/\($0.int64(1))" }
        #expect(listed == ["s1/7", "s1/8", "s3/7"])
        let chain = try connection.query("SELECT id, previous_id FROM session_journal ORDER BY id") {
            "\($0.int64(0))←\($0.isNull(1) ? "-" : String($0.int64(1)))"
        }
        #expect(chain == ["1←-", "2←-", "3←1", "4←3", "5←-", "6←2"])
        let heads = try connection.query(
            "SELECT session_id, head FROM journal_heads UNION ALL SELECT id, journal_head FROM sessions ORDER BY 1"
        ) { "\($0.string(0))→\($0.int64(1))" }
        #expect(heads == ["s1→4", "s2→6", "s3→5"])
        try await server.stop()
    }

    /// The users session `id` is listed under, for erasure.
    static func listedUsers(_ id: String, _ connection: any SQLConnection) throws -> [Int64?] {
        try connection.query("SELECT user_id FROM journal_users WHERE session_id = ?1", [.text(id)]) { $0.int64(0) }
    }

    @Test(arguments: Backend.allCases) func theHistoryOfAnUnknownSessionIsNotFound(backend: Backend) async throws {
        let server = try await ServerProcess.start(
            backend: backend, arguments: ["--operator-key-file", try OperatorAccessTests.keyFile()])
        let client = try await SessionClient.create(port: server.port)
        for path in ["nosuchsession/history", "nosuchsession/history?before=5", "nosuchsession/history/1"] {
            ProblemAssertions.expect(try await Self.operatorGet(server, path), 404, "session-not-found")
        }
        // A session with no history yet is known: its (empty) page, and no such version.
        #expect(try await Self.operatorEntries(server, client.id) == ["(start)"])
        let past = try await Self.operatorGet(server, client.id + "/history?before=1")
        #expect(past.status == 200 && (past.json["entries"] as? [Any])?.isEmpty == true)
        ProblemAssertions.expect(try await Self.operatorGet(server, client.id + "/history/9"), 404, "version-not-retained")
        // A user asking for an unknown session's history, with a token of their own.
        for path in ["/v1/sessions/nosuchsession/history", "/v1/sessions/nosuchsession/history/1"] {
            ProblemAssertions.expect(
                try await TestHTTP.request(port: server.port, "GET", path, headers: ["Authorization": "Bearer \(client.token)"]),
                404, "session-not-found")
        }
    }

    /// Every `table.column` of the database with a row whose value holds `text`: text columns
    /// as they are, blobs as bytes (PostgreSQL's `bytea` by its hex text).
    static func columnsContaining(_ text: String, database: String) throws -> [String] {
        let connection = try StoredData.open(database)
        let postgres = database.hasPrefix("postgresql://")
        let columns =
            postgres
            ? try connection.query(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'", []
            ) { ($0.string(0), $0.string(1)) }
            : try connection.query(
                """
                SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c
                WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
                """, []
            ) { ($0.string(0), $0.string(1)) }
        #expect(columns.contains { $0 == ("session_journal", "snapshot") })
        var found: [String] = []
        for (table, column) in columns {
            let match =
                postgres
                ? "position(?1 in \"\(column)\"::text) > 0 OR position(encode(convert_to(?1, 'UTF8'), 'hex') in \"\(column)\"::text) > 0"
                : "instr(CAST(\"\(column)\" AS BLOB), CAST(?1 AS BLOB)) > 0"
            let count = try connection.queryFirst(
                "SELECT count(*) FROM \"\(table)\" WHERE \(match)", [.text(text)]
            ) { $0.int(0) }
            if (count ?? 0) > 0 { found.append("\(table).\(column)") }
        }
        return found
    }
}
