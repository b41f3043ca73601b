import CoordinatorClient
import Foundation
import TestSupport
import Testing

/// The README's walkthrough, by a native shell's client against the real server: it taps the
/// top screen without naming ids, keeps every rotated token, and renders each State.
@Suite struct ClientJourneyTests {
    /// A cold start from a universal link is one request: the session is created at the link,
    /// and its State carries the top screen's canonical link. A resumed session opens it.
    @Test func aColdStartFromALinkCreatesTheSessionThere() async throws {
        let server = try await ServerProcess.start()
        // A post to link to, by a user of another session.
        var author = try await SessionClient.create(port: server.port)
        try await Journey.register(&author, email: "linked@example.com", displayName: "Linked")
        try Journey.expect200(try await author.send("compose"))
        try Journey.expect200(try await author.send("submit", ["text": "A post to share"]))
        let posts = author.topScreen.props["posts"] as? [[String: Any]] ?? []
        let postID = try #require(posts.first?["id"] as? Int)

        let harness = ClientHarness(port: server.port)
        let client = harness.client
        let first = try await client.start(at: "/signup")
        #expect(first.topScreen?.name == "signUp.email")
        #expect(first.version == 1, "created at the link: no second request")
        // Signed in, a resumed session opens a link with `open`, and the State names the link.
        _ = try await client.send("next", payload: ["email": "reader@example.com"])
        _ = try await client.send("next", payload: ["password": .string(Steps.password)])
        _ = try await client.send("finish", payload: ["displayName": "Reader"])
        let opened = try await client.start(at: "/posts/\(postID)")
        #expect(opened.topScreen?.name == "post")
        #expect(opened.link == "/posts/\(postID)")
        #expect(await client.droppedLink == nil)
    }

    /// A cold start at a post that does not exist, signed out: the session is created there (its
    /// existence is checked once signed in), and the sign-in's answer says the link was dropped.
    @Test func aLinkDroppedAtSignInIsTheClientsToTell() async throws {
        let server = try await ServerProcess.start()
        var author = try await SessionClient.create(port: server.port)
        try await Journey.register(&author, email: "dropper@example.com", displayName: "Dropper")
        let client = ClientHarness(port: server.port).client
        let first = try await client.start(at: "/posts/999999")
        #expect(first.topScreen?.name == "login")
        _ = try await client.send("submit", payload: ["email": "dropper@example.com", "password": .string(Steps.password)])
        #expect(await client.state?.topScreen?.name == "timeline")
        #expect(await client.droppedLink?.link == "/posts/999999")
        _ = try await client.send("compose")
        #expect(await client.droppedLink == nil, "said once, by the answer that dropped it")
        try await server.stop()
    }

    @Test func theReadmeJourneyThroughTheClient() async throws {
        let server = try await ServerProcess.start()
        let harness = ClientHarness(port: server.port)
        let client = harness.client
        let rendered = await client.states()

        let first = try await client.start()
        #expect(first.topScreen?.name == "firstRun")
        #expect(first.user == nil)
        var tokens = [try #require(await client.credentials.session?.token)]
        /// Sends and checks the top screen; notes whether the token rotated.
        func step(_ event: String, _ payload: [String: JSONValue]? = nil, top: String, rotates: Bool = false) async throws {
            let before = await client.state?.version ?? 0
            let state = try await client.send(event, payload: payload)
            #expect(state.topScreen?.name == top, "after \(event)")
            #expect(state.version == before + 1, "after \(event)")
            #expect(await client.state == state)
            let token = try #require(await client.credentials.session?.token)
            #expect((token != tokens.last) == rotates, "token after \(event)")
            if token != tokens.last { tokens.append(token) }
        }

        try await step("signUp", top: "signUp.email")
        try await step("next", ["email": "ada@example.com"], top: "signUp.password")
        try await step("next", ["password": .string(Steps.password)], top: "signUp.profile")
        try await step("finish", ["displayName": "Ada"], top: "timeline", rotates: true)
        #expect(await client.state?.user?.displayName == "Ada")
        try await step("compose", top: "compose")
        let composing = ScreenStackModel(try #require(await client.state))
        #expect(composing.sheets.count == 1)
        #expect(composing.sheets.first?.stack()?.root.name == "compose")
        try await step("submit", ["text": "Hello, coordinators!"], top: "timeline")
        let posts = try #require(await client.state?.topScreen?.props["posts"]?.arrayValue)
        #expect(posts.count == 1)
        let postID = try #require(posts.first?["id"]?.intValue)
        let authorID = try #require(await client.state?.user?.id)
        try await step("openPost", ["postId": .int(postID)], top: "post")
        try await step("openUser", ["userId": .int(Int(authorID))], top: "user")
        let pushed = ScreenStackModel(try #require(await client.state))
        #expect(pushed.base?.stack()?.path.map(\.name) == ["post", "user"])
        try await step("popToRoot", top: "timeline")
        try await client.perform(.selectTab("profile"))
        #expect(await Steps.top(client) == "profile")
        try await step("openSettings", top: "settings")
        try await step("signOut", top: "firstRun", rotates: true)
        #expect(await client.state?.user == nil)
        try await step("logIn", top: "login")
        try await step("submit", ["email": "ada@example.com", "password": .string(Steps.password)], top: "timeline", rotates: true)
        try await client.perform(.selectTab("profile"))
        try await step("openSettings", top: "settings")
        try await step("changePassword", top: "changePassword")
        try await step(
            "save", ["currentPassword": .string(Steps.password), "newPassword": .string(Steps.newPassword)], top: "settings",
            rotates: true)
        try await step("signOut", top: "firstRun", rotates: true)
        try await step("logIn", top: "login")
        try await step("submit", ["email": "ada@example.com", "password": .string(Steps.newPassword)], top: "timeline", rotates: true)
        try await Steps.openSettings(client)
        try await step("deleteAccount", top: "confirmDelete")
        let confirming = ScreenStackModel(try #require(await client.state))
        #expect(confirming.alert?.name == "confirmDelete")
        try await step("confirm", ["password": .string(Steps.newPassword)], top: "firstRun", rotates: true)
        #expect(await client.state?.user == nil)
        // Seven rotations: sign-up, sign-out, sign-in, password change, sign-out, sign-in, deletion.
        #expect(tokens.count == 8)
        #expect(Set(tokens).count == tokens.count)
        // A sign-in and a registration gave the device a credential, kept beyond the session.
        #expect(await client.credentials.deviceToken != nil)
        // The store holds what the client holds.
        #expect(await harness.store.load() == client.credentials)

        // The server agrees with what the client shows, and the shell's stream ends on it.
        let shown = try #require(await client.state)
        #expect(try await client.refresh() == shown)
        var last: SessionState?
        for await state in rendered {
            last = state
            if state.version == shown.version { break }
        }
        #expect(last == shown)
        // Nothing was retried: every event went out once.
        #expect(harness.sleeps.recorded.isEmpty)
        try await server.stop()
    }

    /// The catalog a shell renders from: every screen the journey showed is declared, with its events.
    @Test func theCatalogDeclaresTheScreensShown() async throws {
        let server = try await ServerProcess.start()
        let harness = ClientHarness(port: server.port)
        let client = harness.client
        let catalog = try await client.catalog()
        #expect(catalog.screen(named: "login")?.events.map(\.name) == ["submit", "signUp"])
        let submit = try #require(catalog.event("submit", of: "login"))
        #expect(submit.fields.map(\.name).sorted() == ["email", "password"])
        #expect(submit.fields.first { $0.name == "password" }?.type == "password")
        #expect(catalog.event("back", of: "login")?.fields.isEmpty == true)
        #expect(catalog.systemEvents.map(\.name).sorted() == ["back", "dismiss", "open", "selectTab"])
        #expect(catalog.screen(named: "timeline")?.title == "Timeline")
        // Kept: a second call asks the server nothing.
        #expect(try await client.catalog() == catalog)
        #expect(harness.transport.sent.count == 1)
        try await server.stop()
    }
}
