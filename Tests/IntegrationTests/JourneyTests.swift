import Foundation
import TestSupport
import Testing

/// The shipped app end to end over HTTP, as the README's walkthrough tells it.
@Suite struct JourneyTests {
    @Test(arguments: Backend.allCases) func signUpPostBrowseSettingsSignOutInChangePasswordDelete(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        let firstToken = client.token
        #expect(client.topScreen.name == "firstRun")

        // Sign up in three steps; the token rotates when the session signs in.
        try await Journey.register(&client, email: "ada@example.com", displayName: "Ada")
        #expect(client.token != firstToken)
        #expect((client.state["user"] as? [String: Any])?["displayName"] as? String == "Ada")
        #expect(client.topScreen.name == "timeline")
        #expect(client.topScreen.events == ["openPost", "openUser", "compose", "loadMore", "refresh", "selectTab"])

        // Compose a post; the timeline shows it.
        try Journey.expect200(try await client.send("compose"))
        #expect(client.topScreen.name == "compose")
        #expect(client.topScreen.events.contains("dismiss"))
        try Journey.expect200(try await client.send("submit", ["text": "Hello, coordinators!"]))
        #expect(client.topScreen.name == "timeline")
        let posts = client.topScreen.props["posts"] as? [[String: Any]] ?? []
        #expect(posts.count == 1)
        #expect(posts.first?["text"] as? String == "Hello, coordinators!")
        let postID = try #require(posts.first?["id"] as? Int)
        let authorID = try #require((posts.first?["author"] as? [String: Any])?["id"] as? Int)

        // Open it, open its author, pop to root.
        try Journey.expect200(try await client.send("openPost", ["postId": postID]))
        #expect(client.topScreen.name == "post")
        try Journey.expect200(try await client.send("openUser", ["userId": authorID]))
        #expect(client.topScreen.name == "user")
        #expect(((client.topScreen.props["user"] as? [String: Any])?["displayName"]) as? String == "Ada")
        try Journey.expect200(try await client.send("popToRoot"))
        #expect(client.topScreen.name == "timeline")

        // Open settings from the profile tab; sign out.
        try Journey.expect200(try await client.send("selectTab", ["tab": "profile"]))
        #expect(client.topScreen.name == "profile")
        #expect(client.topScreen.props["postCount"] as? Int == 1)
        try Journey.expect200(try await client.send("openSettings"))
        #expect(client.topScreen.name == "settings")
        let beforeSignOut = client.token
        try Journey.expect200(try await client.send("signOut"))
        #expect(client.topScreen.name == "firstRun")
        #expect(client.state["user"] is NSNull)
        #expect(client.token != beforeSignOut)

        // Sign in; change the password; sign in with the new one.
        try Journey.expect200(try await Journey.signIn(&client, email: "ADA@example.com"))
        #expect(client.topScreen.name == "timeline")
        try Journey.expect200(try await client.send("selectTab", ["tab": "profile"]))
        try Journey.expect200(try await client.send("openSettings"))
        try Journey.expect200(try await client.send("changePassword"))
        try Journey.expect200(try await client.send("save", ["currentPassword": "not the password!!", "newPassword": "x"]))
        #expect(client.topScreen.props["error"] as? String == "The password is not correct.")
        let beforeChange = client.token
        let newPassword = "a brand new passphrase 2026"
        try Journey.expect200(try await client.send("save", ["currentPassword": Journey.password, "newPassword": newPassword]))
        #expect(client.topScreen.name == "settings")
        #expect(client.token != beforeChange)
        try Journey.expect200(try await client.send("signOut"))
        let old = try await Journey.signIn(&client, email: "ada@example.com")
        #expect(old.status == 200)
        #expect(client.topScreen.props["error"] as? String == "Wrong e-mail or password.")
        try Journey.expect200(try await client.send("submit", ["email": "ada@example.com", "password": newPassword]))
        #expect(client.topScreen.name == "timeline")

        // Delete the account: an alert asks for the password; back to firstRun.
        try Journey.expect200(try await client.send("selectTab", ["tab": "profile"]))
        try Journey.expect200(try await client.send("openSettings"))
        try Journey.expect200(try await client.send("deleteAccount"))
        #expect(client.topScreen.name == "confirmDelete")
        #expect((client.state["stack"] as? [[String: Any]])?.last?["presentation"] as? String == "alert")
        try Journey.expect200(try await client.send("confirm", ["password": newPassword]))
        #expect(client.topScreen.name == "firstRun")
        #expect(client.state["user"] is NSNull)
        let gone = try await Journey.signIn(&client, email: "ada@example.com", password: newPassword)
        #expect(gone.status == 200)
        #expect(client.topScreen.props["error"] as? String == "Wrong e-mail or password.")
    }

    /// Behind the trusted proxy, failures slow down the guessing client, not the account's owner.
    /// The server's clock stands still (`--test-hooks`), so the delays do not depend on how fast
    /// the requests go.
    @Test(arguments: Backend.allCases) func unknownEmailAndWrongPasswordGetTheSameAnswerAndRepeatedFailuresAre429(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--test-hooks", "--trusted-proxy", "127.0.0.1"])
        var owner = try await SessionClient.create(port: server.port)
        try await Journey.register(&owner, email: "known@example.com", displayName: "Known")

        let attacker = ["X-Forwarded-For": "203.0.113.9"]
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        let unknown = try await client.send(
            "submit", ["email": "nobody@example.com", "password": "whatever password 1"], headers: attacker)
        let unknownProps = client.topScreen.props
        let wrong = try await client.send(
            "submit", ["email": "known@example.com", "password": "whatever password 1"], headers: attacker)
        #expect(unknown.status == 200 && wrong.status == 200)
        #expect(unknownProps["error"] as? String == client.topScreen.props["error"] as? String)

        // Three failures for one account from one client, then 429 with Retry-After, even with
        // the right password; each later failure doubles the wait.
        for _ in 0..<2 {
            #expect(
                try await client.send("submit", ["email": "known@example.com", "password": "still wrong password"], headers: attacker)
                    .status == 200)
        }
        let throttled = try await client.send(
            "submit", ["email": "known@example.com", "password": Journey.password], headers: attacker)
        #expect(throttled.status == 429)
        #expect(throttled.headers["retry-after"] == "1")
        #expect(throttled.headers["content-type"] == "application/problem+json")
        try await server.advanceClock(seconds: 1)
        #expect(
            try await client.send("submit", ["email": "known@example.com", "password": "still wrong password"], headers: attacker)
                .status == 200)
        let slower = try await client.send(
            "submit", ["email": "known@example.com", "password": "still wrong password"], headers: attacker)
        #expect(slower.status == 429)
        #expect(slower.headers["retry-after"] == "2")

        // The owner, at their own address, is not slowed at all.
        var device = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await device.send("logIn"))
        let signedIn = try await device.send(
            "submit", ["email": "known@example.com", "password": Journey.password],
            headers: ["X-Forwarded-For": "198.51.100.7"])
        #expect(signedIn.status == 200)
        #expect(device.topScreen.name == "timeline")
    }

    @Test(arguments: Backend.allCases) func twoSessionsRacingToRegisterOneEmailExactlyOneWins(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var first = try await SessionClient.create(port: server.port)
        var second = try await SessionClient.create(port: server.port)
        for index in 0..<2 {
            var client = index == 0 ? first : second
            try Journey.expect200(try await client.send("signUp"))
            try Journey.expect200(try await client.send("next", ["email": "race@example.com"]))
            try Journey.expect200(try await client.send("next", ["password": Journey.password]))
            if index == 0 { first = client } else { second = client }
        }
        async let a = first.send("finish", ["displayName": "First"])
        async let b = second.send("finish", ["displayName": "Second"])
        let answers = try await [a, b]
        #expect(answers.map(\.status) == [200, 200])
        let tops = answers.map { answer -> String in
            let state = answer.json
            return SessionClient(port: 0, id: "", token: "", stateText: SessionClient.json(state)).topScreen.name
        }
        #expect(tops.sorted() == ["signUp.profile", "timeline"])
        let loser = answers.first { ($0.json["top"] as? String) != nil && ($0.json["user"] is NSNull) }
        let loserState = SessionClient(port: 0, id: "", token: "", stateText: loser?.text ?? "{}")
        #expect(loserState.topScreen.props["error"] as? String == "This e-mail is already registered.")
    }

    @Test(arguments: Backend.allCases) func tabletRegistersInOneForm(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port, platform: "tablet")
        try Journey.expect200(try await client.send("signUp"))
        #expect(client.topScreen.name == "signUp.form")
        try Journey.expect200(
            try await client.send("submit", ["email": "tab@example.com", "password": "short", "displayName": "Tab"]))
        #expect(client.topScreen.props["error"] as? String == "Use a password of 15 to 128 characters.")
        try Journey.expect200(
            try await client.send("submit", ["email": "tab@example.com", "password": Journey.password, "displayName": "Tab"]))
        #expect(client.topScreen.name == "timeline")
    }
}
