import Navigation
import SampleApp
import Testing

@Suite struct AuthFlowTests {
    @Test func firstRunOffersSignUpAndLogIn() throws {
        let app = try AppHarness()
        #expect(app.top.name == "firstRun")
        #expect(app.top.props == [:])
        #expect(app.accepted == ["signUp", "logIn"])
        #expect(app.state["user"] == .null)
    }

    @Test func registrationStepsWithBrokenRulesAndADraftThatSurvivesBack() async throws {
        var app = try AppHarness()
        try await app.send("signUp")
        #expect(app.top.name == "signUp.email")
        #expect(app.top.props == ["email": "", "error": nil])
        #expect(app.accepted == ["next", "back"])

        try await app.send("next", ["email": "not-an-email"])
        #expect(app.top.props == ["email": "not-an-email", "error": "Enter a valid e-mail address."])
        try await app.send("next", ["email": " ada@example.com "])
        #expect(app.top.name == "signUp.password")
        #expect(app.top.props == ["error": nil])

        try await app.send("next", ["password": "too short"])
        #expect(app.top.props == ["error": "Use a password of 15 to 128 characters."])
        try await app.send("next", ["password": .string(String(repeating: "p", count: 129))])
        #expect(app.top.props == ["error": "Use a password of 15 to 128 characters."])

        // Back to step 1: it shows the e-mail already entered; forward again keeps it.
        try await app.send("back")
        #expect(app.top.name == "signUp.email")
        #expect(app.top.props == ["email": "ada@example.com", "error": nil])
        try await app.send("next", ["email": "ada@example.com"])
        try await app.send("next", ["password": .string(AppHarness.password)])
        #expect(app.top.name == "signUp.profile")
        #expect(app.top.props == ["displayName": "", "error": nil])

        try await app.send("finish", ["displayName": "   "])
        #expect(app.top.props == ["displayName": "", "error": "Use a display name of 1 to 50 characters."])
        try await app.send("finish", ["displayName": .string(String(repeating: "n", count: 51))])
        #expect(app.top.props["error"] == "Use a display name of 1 to 50 characters.")
        let outcome = try await app.send("finish", ["displayName": " Ada "])
        #expect(outcome.credentialsRotated)
        #expect(app.state["user"] == ["id": 1, "displayName": "Ada"])
        #expect(app.top.name == "timeline")
        #expect(try app.count("users") == 1)
        let hash = try app.connection.queryFirst("SELECT password_hash FROM users") { $0.string(0) }
        #expect(hash?.hasPrefix("$argon2id$") == true)
    }

    @Test func takenEmailIsAnErrorCaseInsensitively() async throws {
        var first = try AppHarness()
        try await first.register()
        var second = try AppHarness(connection: first.connection)
        try await second.send("signUp")
        try await second.send("next", ["email": "ADA@example.com"])
        #expect(second.top.props == ["email": "ADA@example.com", "error": "This e-mail is already registered."])
    }

    @Test func backingOutOfRegistrationRemovesIt() async throws {
        var app = try AppHarness()
        try await app.send("signUp")
        try await app.send("back")
        #expect(app.top.name == "firstRun")
        #expect(SampleApp.navigation.inspect(app.tree)["root"]?["children"]?.arrayValue?.first?["children"] == [])
    }

    @Test func tabletRegistersInOneForm() async throws {
        var app = try AppHarness(platform: .tablet)
        try await app.send("logIn")
        try await app.send("signUp")
        #expect(app.top.name == "signUp.form")
        #expect(app.top.props == ["email": "", "displayName": "", "error": nil])
        try await app.send("submit", ["email": "x", "password": .string(AppHarness.password), "displayName": "T"])
        #expect(app.top.props == ["email": "x", "displayName": "T", "error": "Enter a valid e-mail address."])
        try await app.send("submit", ["email": "t@example.com", "password": "short", "displayName": "T"])
        #expect(app.top.props["error"] == "Use a password of 15 to 128 characters.")
        try await app.send("submit", ["email": "t@example.com", "password": .string(AppHarness.password), "displayName": " "])
        #expect(app.top.props["error"] == "Use a display name of 1 to 50 characters.")
        try await app.send("submit", ["email": "t@example.com", "password": .string(AppHarness.password), "displayName": "Tab"])
        #expect(app.top.name == "timeline")
        #expect(app.state["user"] == ["id": 1, "displayName": "Tab"])
    }

    @Test func loginWithWrongOrUnknownCredentialsGivesOneAnswerThenSignsIn() async throws {
        var owner = try AppHarness()
        try await owner.register()
        var app = try AppHarness(connection: owner.connection)
        try await app.send("logIn")
        #expect(app.top.name == "login")
        #expect(app.top.props == ["email": "", "error": nil])
        #expect(app.accepted == ["submit", "signUp", "back"])
        try await app.send("submit", ["email": "nobody@example.com", "password": .string(AppHarness.password)])
        let unknown = app.top.props["error"]
        try await app.send("submit", ["email": "ada@example.com", "password": "wrong password entirely"])
        #expect(app.top.props == ["email": "ada@example.com", "error": unknown ?? nil])
        #expect(unknown == "Wrong e-mail or password.")
        let outcome = try await app.send("submit", ["email": "Ada@Example.com", "password": .string(AppHarness.password)])
        #expect(outcome.credentialsRotated)
        #expect(app.top.name == "timeline")
        #expect(app.state["user"] == ["id": 1, "displayName": "Ada"])
    }

    @Test func loginScreenCanStartRegistration() async throws {
        var app = try AppHarness()
        try await app.send("logIn")
        try await app.send("signUp")
        #expect(app.top.name == "signUp.email")
    }

    @Test func repeatedFailuresAreThrottledPerAccountAndPerAddress() async throws {
        var owner = try AppHarness()
        try await owner.register()
        var app = try AppHarness(connection: owner.connection, throttle: LoginThrottle(perAccount: 3, perAddress: 5, windowSeconds: 60))
        try await app.send("logIn")
        for _ in 0..<3 { try await app.send("submit", ["email": "ada@example.com", "password": "wrong password entirely"]) }
        let before = app.tree
        await #expect(throws: EventThrottled.self) {
            try await app.send("submit", ["email": "ada@example.com", "password": .string(AppHarness.password)])
        }
        #expect(app.tree == before)
        // Other accounts from the same address are throttled once the address limit is reached.
        for _ in 0..<2 { try await app.send("submit", ["email": "other@example.com", "password": "wrong password entirely"]) }
        await #expect(throws: EventThrottled.self) {
            try await app.send("submit", ["email": "third@example.com", "password": "wrong password entirely"])
        }
        // From another address, after the window, it works again.
        app.clientAddress = "198.51.100.7"
        app.now += 61
        try await app.send("submit", ["email": "ada@example.com", "password": .string(AppHarness.password)])
        #expect(app.top.name == "timeline")
    }
}
