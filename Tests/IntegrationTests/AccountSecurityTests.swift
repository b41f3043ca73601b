import Foundation
import SQLiteStore
import Store
import TestSupport
import Testing

/// Accounts and sessions over HTTP on the real binary: no takeover through a deleted account,
/// credential changes end other sessions, NUL bytes do not cut text short.
@Suite struct AccountSecurityTests {
    static func signedIn(_ port: UInt16, email: String) async throws -> SessionClient {
        var client = try await SessionClient.create(port: port)
        let answer = try await Journey.signIn(&client, email: email)
        try Journey.expect200(answer)
        return client
    }

    /// Walks `client` to the settings sheet of the profile tab.
    static func openSettings(_ client: inout SessionClient) async throws {
        try Journey.expect200(try await client.send("selectTab", ["tab": "profile"]))
        try Journey.expect200(try await client.send("openSettings"))
    }

    /// User A on two devices deletes the account on one; the other is signed out for good, and a
    /// new user B gets a new id, never A's.
    @Test(arguments: Backend.allCases) func deletingAnAccountEndsEverySessionAndItsIdIsNeverReused(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var phone = try await SessionClient.create(port: server.port)
        try await Journey.register(&phone, email: "a@example.com", displayName: "A")
        let aID = (phone.state["user"] as? [String: Any])?["id"] as? Int
        var laptop = try await Self.signedIn(server.port, email: "a@example.com")

        try await Self.openSettings(&phone)
        try Journey.expect200(try await phone.send("deleteAccount"))
        try Journey.expect200(try await phone.send("confirm", ["password": Journey.password]))
        #expect(phone.topScreen.name == "firstRun")

        #expect(try await laptop.refresh().status == 401)
        #expect(try await laptop.send("compose").status == 401)

        var newcomer = try await SessionClient.create(port: server.port)
        try await Journey.register(&newcomer, email: "b@example.com", displayName: "B")
        let bID = (newcomer.state["user"] as? [String: Any])?["id"] as? Int
        #expect(aID != nil && bID != nil && aID != bID)
        let rows = try StoredData.open(server.databasePath).queryFirst(
            "SELECT count(*) FROM sessions WHERE user_id = ?1", [.int(aID ?? 0)]) { $0.int(0) }
        #expect(rows == 0)
    }

    /// A password change ends the user's other sessions; the one that changed it goes on with a
    /// new token.
    @Test(arguments: Backend.allCases) func changingThePasswordEndsTheOtherSessions(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var phone = try await SessionClient.create(port: server.port)
        try await Journey.register(&phone, email: "c@example.com", displayName: "C")
        var laptop = try await Self.signedIn(server.port, email: "c@example.com")
        let other = try await Self.signedIn(server.port, email: "c@example.com")

        try await Self.openSettings(&laptop)
        try Journey.expect200(try await laptop.send("changePassword"))
        let oldToken = laptop.token
        let changed = try await laptop.send(
            "save", ["currentPassword": Journey.password, "newPassword": "a brand new passphrase"])
        #expect(changed.status == 200)
        #expect(laptop.token != oldToken)
        #expect(laptop.topScreen.name == "settings")
        #expect(try await laptop.send("done").status == 200)

        var stale = phone
        #expect(try await stale.refresh().status == 401)
        #expect(try await other.get("").status == 401)
    }

    /// Text is stored whole: a NUL byte neither cuts an e-mail short nor dodges the throttle;
    /// identifiers with control characters are refused with `422` and the field.
    @Test(arguments: Backend.allCases) func nulBytesAreRefusedInIdentifiersAndNeverCutText(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        let login = try await client.send("submit", ["email": "victim@example.com\u{0}n", "password": Journey.password])
        #expect(login.status == 422)
        #expect((login.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "email")
        #expect(login.headers["content-type"] == "application/problem+json")

        var registering = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await registering.send("signUp"))
        let email = try await registering.send("next", ["email": "eve@example\u{0}.com"])
        #expect(email.status == 422)

        var author = try await SessionClient.create(port: server.port)
        try await Journey.register(&author, email: "author@example.com", displayName: "Author")
        try Journey.expect200(try await author.send("compose"))
        let hidden = try await author.send("submit", ["text": "\u{0}hidden"])
        #expect(hidden.status == 422)
        #expect((hidden.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "text")
        let posts = try StoredData.open(server.databasePath).queryFirst("SELECT count(*) FROM posts") { $0.int(0) }
        #expect(posts == 0)
    }

    /// With one resident session allowed, sessions are evicted all the time; a session a request
    /// uses never is, so no client sees `404` for a live session or a version going backwards.
    @Test(arguments: Backend.allCases) func evictionUnderLoadNeverLosesALiveSession(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--max-resident-sessions", "1"])
        let port = server.port
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var client = try await SessionClient.create(port: port)
                    var statuses: [Int] = []
                    var lastVersion = client.version
                    for step in 0..<30 {
                        let response =
                            step % 3 == 2
                            ? try await client.refresh() : try await client.send(ConcurrencyTests.nextEvent(for: client))
                        statuses.append(response.status)
                        guard response.status == 200 else { continue }
                        guard client.version >= lastVersion else {
                            throw TestClientError(description: "version went back from \(lastVersion) to \(client.version)")
                        }
                        lastVersion = client.version
                    }
                    return statuses
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses.count == 240)
        #expect(statuses.allSatisfy { $0 == 200 })
    }

    /// A token that is no longer current replays only the answer that rotated it away, nothing
    /// else; and nothing once the session is gone.
    @Test(arguments: Backend.allCases) func anOldTokenReplaysOnlyTheRequestThatRotatedIt(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var owner = try await SessionClient.create(port: server.port)
        try await Journey.register(&owner, email: "rot@example.com", displayName: "Rot")

        var client = try await SessionClient.create(port: server.port)
        let oldToken = client.token
        let opened = try await client.send("logIn", headers: ["Idempotency-Key": "open"])
        #expect(opened.status == 200)
        let body: [String: Any] = ["email": "rot@example.com", "password": Journey.password]
        let signedIn = try await client.send("submit", body, headers: ["Idempotency-Key": "sign-in"])
        #expect(signedIn.status == 200)

        var stale = client
        stale.token = oldToken
        // The answer made with the old token that did not rotate it: not for an old token.
        #expect(try await stale.send("logIn", screen: "s1", headers: ["Idempotency-Key": "open"]).status == 401)
        stale.token = oldToken
        let replay = try await stale.send("submit", body, screen: "s2", headers: ["Idempotency-Key": "sign-in"])
        #expect(replay.status == 200)
        #expect(replay.text == signedIn.text)

        // Once the session is deleted, the old token replays nothing.
        let deleted = try await TestHTTP.request(
            port: server.port, "DELETE", "/v1/sessions/\(client.id)", headers: ["Authorization": "Bearer \(client.token)"])
        #expect(deleted.status == 204)
        stale.token = oldToken
        #expect(try await stale.send("submit", body, screen: "s2", headers: ["Idempotency-Key": "sign-in"]).status == 401)
    }
}
