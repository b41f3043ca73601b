import Foundation
import Store
import TestSupport
import Testing

/// Issue 24 through the real server: each link, at creation and on a live session, gives the State
/// its taps give; a link needing sign-in continues after it; a bad link changes nothing, in memory
/// or in the store; and Chromium opens a shared URL and walks back through it.
@Suite struct LinkServerTests {
    /// The links and the taps from the timeline that reach the same screens.
    static var links: [(link: String, taps: [(String, [String: Any]?)])] {
        [
            ("/posts/1", [("openPost", ["postId": 1])]),
            ("/users/1", [("openUser", ["userId": 1])]),
            ("/settings", [("selectTab", ["tab": "profile"]), ("openSettings", nil)]),
        ]
    }

    /// The State without the session's `id` and `version`, as canonical JSON.
    static func shown(_ client: SessionClient) -> String {
        var state = client.state
        state["id"] = nil
        state["version"] = nil
        return SessionClient.json(state)
    }

    /// A new session created at `link`.
    static func create(port: UInt16, link: String) async throws -> (TestResponse, SessionClient?) {
        let response = try await TestHTTP.request(
            port: port, "POST", "/v1/sessions", headers: ["Content-Type": "application/json"],
            body: SessionClient.json(["link": link]))
        guard response.status == 201, let token = response.json["token"] as? String,
            let session = response.json["session"] as? [String: Any], let id = session["id"] as? String
        else { return (response, nil) }
        return (response, SessionClient(port: port, id: id, token: token, stateText: SessionClient.json(session)))
    }

    /// A server whose database holds Linker (user 1) and their post 1.
    static func world(_ backend: Backend) async throws -> ServerProcess {
        let server = try await ServerProcess.start(backend: backend)
        var author = try await SessionClient.create(port: server.port)
        try await Journey.register(&author, email: "link@example.com", displayName: "Linker")
        try Journey.expect200(try await author.send("compose"))
        try Journey.expect200(try await author.send("submit", ["text": "Linked post"]))
        return server
    }

    @Test(arguments: Backend.allCases) func eachLinkGivesTheStateItsTapsGive(backend: Backend) async throws {
        let server = try await Self.world(backend)
        for (link, taps) in Self.links {
            var tapped = try await SessionClient.create(port: server.port)
            try Journey.expect200(try await Journey.signIn(&tapped, email: "link@example.com"))
            var opened = try await SessionClient.create(port: server.port)
            try Journey.expect200(try await Journey.signIn(&opened, email: "link@example.com"))
            for (event, payload) in taps { try Journey.expect200(try await tapped.send(event, payload)) }
            // On a live session: the `open` event.
            let answer = try await opened.send("open", ["link": link])
            #expect(answer.status == 200, "\(link): \(answer.text)")
            #expect(Self.shown(opened) == Self.shown(tapped), "\(link)")
            #expect(opened.state["link"] as? String == link)
            // At creation: sign-in first (the login screen over the first one), then the link.
            let (created, atLink) = try await Self.create(port: server.port, link: link)
            #expect(created.status == 201, "\(link): \(created.text)")
            guard var linked = atLink else { continue }
            #expect(SessionClient.screens(in: linked.state).map { $0["name"] as? String } == ["firstRun", "login"])
            try Journey.expect200(try await Journey.signIn(&linked, email: "link@example.com"))
            #expect(Self.shown(linked) == Self.shown(tapped), "\(link)")
            // What the server stored is what it answered.
            var stored = linked
            try await stored.refresh()
            #expect(Self.shown(stored) == Self.shown(linked))
        }
        try await server.stop()
    }

    @Test func aLinkContinuesAfterRegistration() async throws {
        let server = try await Self.world(.sqlite)
        let (_, atLink) = try await Self.create(port: server.port, link: "/posts/1")
        var linked = try #require(atLink)
        try Journey.expect200(try await linked.send("signUp"))
        try Journey.expect200(try await linked.send("next", ["email": "new@example.com"]))
        try Journey.expect200(try await linked.send("next", ["password": Journey.password]))
        try Journey.expect200(try await linked.send("finish", ["displayName": "Newcomer"]))
        #expect(linked.topScreen.name == "post")
        #expect(linked.state["link"] as? String == "/posts/1")
        #expect((linked.state["user"] as? [String: Any])?["displayName"] as? String == "Newcomer")
        try await server.stop()
    }

    /// A signed-out session created at a post that does not exist is created (its existence is
    /// checked once signed in); the sign-in's answer says the link was dropped, and why.
    @Test func aLinkDroppedAtSignInIsSaidInTheAnswer() async throws {
        let server = try await Self.world(.sqlite)
        let (created, atLink) = try await Self.create(port: server.port, link: "/posts/999999")
        #expect(created.status == 201)
        var linked = try #require(atLink)
        let answer = try await Journey.signIn(&linked, email: "link@example.com")
        #expect(answer.status == 200)
        #expect(linked.topScreen.name == "timeline")
        let dropped = try #require(answer.json["linkDropped"] as? [String: Any], "\(answer.text)")
        #expect(dropped["link"] as? String == "/posts/999999")
        #expect((dropped["reason"] as? String)?.isEmpty == false)
        // Only that answer says it: the stored State does not.
        var stored = linked
        try await stored.refresh()
        #expect(stored.state["linkDropped"] == nil)
        try await server.stop()
    }

    @Test(arguments: Backend.allCases) func aBadLinkChangesNothing(backend: Backend) async throws {
        let server = try await Self.world(backend)
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await Journey.signIn(&client, email: "link@example.com"))
        let database = try StoredData.open(server.databasePath)
        func stored() throws -> [Int] {
            [
                try database.queryFirst("SELECT version FROM sessions WHERE id = ?1", [.text(client.id)]) { $0.int(0) } ?? -1,
                try database.queryFirst("SELECT count(*) FROM sessions") { $0.int(0) } ?? -1,
                try database.queryFirst("SELECT count(*) FROM posts") { $0.int(0) } ?? -1,
            ]
        }
        let before = (text: SessionClient.json(client.state), stored: try stored())
        let refusals: [(String, Int, String)] = [
            ("/nowhere", 404, "unknown-link"), ("/posts/abc", 422, "invalid-link"), ("/posts/0", 422, "invalid-link"),
            ("posts/1", 422, "invalid-link"), ("/posts/999", 404, "link-target-not-found"),
            ("/users/2/settings", 403, "link-forbidden"), ("/signup", 403, "link-forbidden"),
        ]
        for (link, status, type) in refusals {
            let answer = try await client.send("open", ["link": link])
            #expect(answer.status == status, "\(link): \(answer.text)")
            #expect(answer.headers["content-type"] == "application/problem+json")
            #expect(answer.json["type"] as? String == "urn:coordinatord:problem:" + type, "\(link)")
            var current = client
            try await current.refresh()
            #expect(SessionClient.json(current.state) == before.text, "\(link)")
            #expect(try stored() == before.stored, "\(link)")
        }
        // At creation: nothing is created. (Signed out, what a link names is checked after sign-in.)
        for (link, status, type) in refusals where status != 403 && link != "/posts/999" {
            let (answer, session) = try await Self.create(port: server.port, link: link)
            #expect(session == nil && answer.status == status, "\(link): \(answer.text)")
            #expect(answer.json["type"] as? String == "urn:coordinatord:problem:" + type, "\(link)")
        }
        let wrongType = try await TestHTTP.request(
            port: server.port, "POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: #"{"link":1}"#)
        #expect(wrongType.status == 422)
        #expect(try stored() == before.stored)
        try await server.stop()
    }

    @Test func theWebClientOpensASharedLinkAndWalksBack() async throws {
        let server = try await Self.world(.sqlite)
        let page = try await TestHTTP.request(port: server.port, "GET", "/posts/1")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        let script = OpenAPITests.repository.appendingPathComponent("Tests/browser/links.py").path
        let result = try await OpenAPITests.run("/usr/bin/env", ["python3", script, "http://127.0.0.1:\(server.port)"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("browser links passed"))
        try await server.stop()
    }

    /// `open` of what the session shows already changes nothing: the same version, no journal
    /// entry, nothing stored (docs/links.md), so an `If-Match` client's next event still matches.
    @Test(arguments: Backend.allCases) func openingWhatIsShownChangesNothing(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("open", ["link": "/signup"]))
        let shown = client.version
        let entries = try await JournalTests.history(client).count
        let again = try await client.send("open", ["link": "/signup"], headers: ["If-Match": "\"\(shown)\""])
        #expect(again.status == 200, "\(again.text)")
        #expect(client.version == shown)
        #expect(try await JournalTests.history(client).count == entries)
        let stored = try StoredData.open(server.databasePath).queryFirst(
            "SELECT version FROM sessions WHERE id = ?1", [.text(client.id)]) { $0.int(0) }
        #expect(stored == shown)
        try Journey.expect200(try await client.send("back", headers: ["If-Match": "\"\(shown)\""]))
        #expect(client.version == shown + 1)
    }
}
