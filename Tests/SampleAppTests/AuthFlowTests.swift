import AccountProtection
import CoordinatorTesting
import Navigation
import Store
@testable import SampleApp
@testable import SignInKit
import TestSupport
import Testing

@Suite struct AuthFlowTests {
    @Test func firstRunOffersSignUpAndLogIn() async throws {
        let app = try await AppTester.sample()
        #expect(app.top.name == "firstRun")
        #expect(app.top.props == [:])
        #expect(app.accepted == ["signUp", "logIn"])
        #expect(app.state["user"] == .null)
    }

    @Test func registrationStepsWithBrokenRulesAndADraftThatSurvivesBack() async throws {
        var app = try await AppTester.sample()
        try await app.send(FirstRunScreen.self, .signUp)
        #expect(app.top.name == "signUp.email")
        #expect(app.top.props == ["email": "", "error": nil])
        #expect(app.accepted == ["next", "back"])

        try await app.send(SignUpEmailScreen.self, .next(EmailField(email: "not-an-email")))
        #expect(app.top.props == ["email": "not-an-email", "error": "Enter a valid e-mail address."])
        try await app.send(SignUpEmailScreen.self, .next(EmailField(email: " ada@example.com ")))
        #expect(app.top.name == "signUp.password")
        #expect(app.top.props == ["error": nil])

        try await app.send(SignUpPasswordScreen.self, .next(PasswordField(password: "too short")))
        #expect(app.top.props == ["error": "Use a password of 15 to 128 characters."])
        try await app.send(SignUpPasswordScreen.self, .next(PasswordField(password: String(repeating: "p", count: 129))))
        #expect(app.top.props == ["error": "Use a password of 15 to 128 characters."])

        // Back to step 1: it shows the e-mail already entered; forward again keeps it.
        try await app.send("back")
        #expect(app.top.name == "signUp.email")
        #expect(app.top.props == ["email": "ada@example.com", "error": nil])
        try await app.send(SignUpEmailScreen.self, .next(EmailField(email: "ada@example.com")))
        try await app.send(SignUpPasswordScreen.self, .next(PasswordField(password: AppTester.password)))
        #expect(app.top.name == "signUp.profile")
        #expect(app.top.props == ["displayName": "", "error": nil])

        try await app.send(SignUpProfileScreen.self, .finish(DisplayNameField(displayName: "   ")))
        #expect(app.top.props == ["displayName": "", "error": "Use a display name of 1 to 50 characters."])
        try await app.send(SignUpProfileScreen.self, .finish(DisplayNameField(displayName: String(repeating: "n", count: 51))))
        #expect(app.top.props["error"] == "Use a display name of 1 to 50 characters.")
        let outcome = try await app.send(SignUpProfileScreen.self, .finish(DisplayNameField(displayName: " Ada ")))
        #expect(outcome.credentialsRotated)
        #expect(app.state["user"] == ["id": 1, "displayName": "Ada"])
        #expect(app.top.name == "timeline")
        #expect(try app.count("users") == 1)
        let hash = try app.database.queryFirst("SELECT password_hash FROM users") { $0.string(0) }
        #expect(hash?.hasPrefix("$argon2id$") == true)
    }

    @Test func takenEmailIsAnErrorCaseInsensitively() async throws {
        var first = try await AppTester.sample()
        try await first.register()
        var second = try await first.newSession()
        try await second.send(FirstRunScreen.self, .signUp)
        try await second.send(SignUpEmailScreen.self, .next(EmailField(email: "ADA@example.com")))
        #expect(second.top.props == ["email": "ADA@example.com", "error": "This e-mail is already registered."])
    }

    @Test func backingOutOfRegistrationRemovesIt() async throws {
        var app = try await AppTester.sample()
        try await app.send(FirstRunScreen.self, .signUp)
        try await app.send("back")
        #expect(app.top.name == "firstRun")
        #expect(SampleApp.navigation.inspect(app.tree)["root"]?["children"]?.arrayValue?.first?["children"] == [])
    }

    @Test func tabletRegistersInOneForm() async throws {
        var app = try await AppTester.sample(platform: .tablet)
        try await app.send(FirstRunScreen.self, .logIn)
        try await app.send(LoginScreen.self, .signUp)
        #expect(app.top.name == "signUp.form")
        #expect(app.top.props == ["email": "", "displayName": "", "error": nil])
        try await app.send(SignUpFormScreen.self, .submit(.init(email: "x", password: AppTester.password, displayName: "T")))
        #expect(app.top.props == ["email": "x", "displayName": "T", "error": "Enter a valid e-mail address."])
        try await app.send(SignUpFormScreen.self, .submit(.init(email: "t@example.com", password: "short", displayName: "T")))
        #expect(app.top.props["error"] == "Use a password of 15 to 128 characters.")
        try await app.send(SignUpFormScreen.self, .submit(.init(email: "t@example.com", password: AppTester.password, displayName: " ")))
        #expect(app.top.props["error"] == "Use a display name of 1 to 50 characters.")
        try await app.send(SignUpFormScreen.self, .submit(.init(email: "t@example.com", password: AppTester.password, displayName: "Tab")))
        #expect(app.top.name == "timeline")
        #expect(app.state["user"] == ["id": 1, "displayName": "Tab"])
    }

    @Test func loginWithWrongOrUnknownCredentialsGivesOneAnswerThenSignsIn() async throws {
        var owner = try await AppTester.sample()
        try await owner.register()
        var app = try await owner.newSession()
        try await app.send(FirstRunScreen.self, .logIn)
        #expect(app.top.name == "login")
        #expect(app.top.props == ["email": "", "error": nil])
        #expect(app.accepted == ["submit", "signUp", "back"])
        try await app.send(LoginScreen.self, .submit(Credentials(email: "nobody@example.com", password: AppTester.password)))
        let unknown = app.top.props["error"]
        try await app.send(LoginScreen.self, .submit(Credentials(email: "ada@example.com", password: "wrong password entirely")))
        #expect(app.top.props == ["email": "ada@example.com", "error": unknown ?? nil])
        #expect(unknown == "Wrong e-mail or password.")
        let outcome = try await app.send(LoginScreen.self, .submit(Credentials(email: "Ada@Example.com", password: AppTester.password)))
        #expect(outcome.credentialsRotated)
        #expect(app.top.name == "timeline")
        #expect(app.state["user"] == ["id": 1, "displayName": "Ada"])
    }

    @Test func loginScreenCanStartRegistration() async throws {
        var app = try await AppTester.sample()
        try await app.send(FirstRunScreen.self, .logIn)
        try await app.send(LoginScreen.self, .signUp)
        #expect(app.top.name == "signUp.email")
    }

    /// A guesser at one address is slowed down more with each failure; the owner, from their
    /// own address, signs in at once.
    @Test func failuresSlowTheGuesserNotTheOwner() async throws {
        var owner = try await AppTester.sample()
        try await owner.register()
        let guards = SampleAppGuards()
        var attacker = try await AppTester.sample(guards: guards, sharing: owner)
        attacker.clientAddress = "203.0.113.9"
        try await attacker.send(FirstRunScreen.self, .logIn)
        // A second passes before each try: three free failures, one after a 1 s delay, then the
        // next one must wait 2 s.
        for _ in 0..<4 {
            attacker.clock.advance(by: .seconds(1))
            try await attacker.send(LoginScreen.self, .submit(Credentials(email: "ada@example.com", password: "wrong password entirely")))
        }
        let before = attacker.tree
        attacker.clock.advance(by: .seconds(1))
        // Another spelling of the same account (case, fullwidth letters) is the same account to the throttle.
        let refused = await #expect(throws: EventThrottled.self) {
            try await attacker.send(LoginScreen.self, .submit(Credentials(email: "ＡＤＡ@EXAMPLE.COM", password: "wrong password entirely")))
        }
        #expect(refused?.retryAfterSeconds == 1)
        #expect(attacker.tree == before)

        var rightful = try await AppTester.sample(guards: guards, sharing: owner)
        rightful.clientAddress = "198.51.100.7"
        try await rightful.send(FirstRunScreen.self, .logIn)
        try await rightful.send(LoginScreen.self, .submit(Credentials(email: "ada@example.com", password: AppTester.password)))
        #expect(rightful.top.name == "timeline")
    }

    /// Far above the per-client delays, an account attacked from many addresses is refused to
    /// everyone until the window passes; and one address guessing many accounts is refused.
    @Test func distributedGuessingLocksTheAccountAndSprayingLocksTheClient() async throws {
        var owner = try await AppTester.sample()
        try await owner.register()
        var policy = FailureThrottle.Policy()
        policy.accountLimit = 6
        policy.clientLimit = 4
        let guards = SampleAppGuards(
            signIns: FailureThrottle(subject: "sign-ins", policy: policy),
            passwordChecks: FailureThrottle(subject: "password checks"),
            registrations: RateLimiter(subject: "registration attempts", capacity: 10, refillSeconds: 6))
        var app = try await AppTester.sample(guards: guards, sharing: owner)
        try await app.send(FirstRunScreen.self, .logIn)
        for index in 0..<6 {
            app.clientAddress = "203.0.113.\(index)"
            try await app.send(LoginScreen.self, .submit(Credentials(email: "ada@example.com", password: "wrong password entirely")))
        }
        app.clientAddress = "198.51.100.7"
        await #expect(throws: EventThrottled.self) {
            try await app.send(LoginScreen.self, .submit(Credentials(email: "ada@example.com", password: AppTester.password)))
        }
        // One address spraying other accounts: its fifth failure is refused, for any account.
        app.clientAddress = "192.0.2.50"
        for index in 0..<4 {
            try await app.send(LoginScreen.self, .submit(Credentials(email: "user\(index)@example.com", password: "wrong password entirely")))
        }
        await #expect(throws: EventThrottled.self) {
            try await app.send(LoginScreen.self, .submit(Credentials(email: "someone@example.com", password: "wrong password entirely")))
        }
        // After the window, the owner gets in.
        app.clock.advance(by: .seconds(policy.windowSeconds))
        app.clientAddress = "198.51.100.7"
        try await app.send(LoginScreen.self, .submit(Credentials(email: "ada@example.com", password: AppTester.password)))
        #expect(app.top.name == "timeline")
    }

    /// One account, however its address is spelled: Unicode forms, fullwidth and look-alike
    /// letters are "already registered"; invisible and bidi characters are refused outright.
    @Test func lookAlikeAddressesAreTheSameAccount() async throws {
        var owner = try await AppTester.sample()
        try await owner.register(email: "ada@example.com")
        for spelling in [
            "ADA@Example.COM", "ａｄａ@example.com", "ada@exаmple.com", "аda@example.com", "ada@ex\u{0430}mple.com",
            " ada@example.com ",
        ] {
            var app = try await owner.newSession()
            try await app.send(FirstRunScreen.self, .signUp)
            try await app.send(SignUpEmailScreen.self, .next(EmailField(email: spelling)))
            #expect(app.top.props["error"] == "This e-mail is already registered.", "\(spelling)")
        }
        var decomposed = try await owner.newSession()
        try await decomposed.register(email: "zoe\u{0308}@example.com", name: "Zoë")
        var composed = try await owner.newSession()
        try await composed.send(FirstRunScreen.self, .signUp)
        try await composed.send(SignUpEmailScreen.self, .next(EmailField(email: "zo\u{00EB}@example.com")))
        #expect(composed.top.props["error"] == "This e-mail is already registered.")
        for hidden in ["ada\u{200B}@example.com", "\u{202E}ada@example.com", "ada@example.com\u{0}x"] {
            var app = try await owner.newSession()
            try await app.send(FirstRunScreen.self, .signUp)
            await #expect(throws: EventRejection.self) { try await app.send(SignUpEmailScreen.self, .next(EmailField(email: hidden))) }
        }
        #expect(try owner.count("users") == 2)
    }

    /// Every registration try counts against the client's rate, "already registered" or not.
    @Test func registrationTriesAreRateLimitedPerClient() async throws {
        let guards = SampleAppGuards(
            signIns: FailureThrottle(subject: "sign-ins"), passwordChecks: FailureThrottle(subject: "password checks"),
            registrations: RateLimiter(subject: "registration attempts", capacity: 3, refillSeconds: 60))
        var app = try await AppTester.sample(guards: guards)
        try await app.send(FirstRunScreen.self, .signUp)
        for index in 0..<3 { try await app.send(SignUpEmailScreen.self, .next(EmailField(email: "probe\(index)@example"))) }
        await #expect(throws: EventThrottled.self) { try await app.send(SignUpEmailScreen.self, .next(EmailField(email: "probe@example.com"))) }
        app.clientAddress = "198.51.100.20"
        try await app.send(SignUpEmailScreen.self, .next(EmailField(email: "probe@example.com")))
        #expect(app.top.name == "signUp.password")
    }

    /// Failures leave no rows behind once their window has passed, nor do full buckets. Its 1500
    /// SQLite writes take seconds on a loaded machine: on a thread of their own, not Swift's pool.
    @Test func throttleEntriesAreSwept() async throws {
        try await onOwnThread { try throttleEntriesAreSweptOnThisThread() }
    }

    func throttleEntriesAreSweptOnThisThread() throws {
        let connection = try AppTester.sampleDatabase()
        func rows(_ table: String) throws -> Int { try connection.queryFirst("SELECT count(*) FROM \(table)") { $0.int(0) } ?? 0 }
        let throttle = FailureThrottle(subject: "sign-ins")
        func fail(_ account: String, _ client: String, now: Int64) throws {
            let attempt = try throttle.check(account: account, client: client, now: now, on: connection)
            try throttle.recordFailure(attempt, now: now, lasting: LastingWrites(connection: connection))
        }
        for index in 0..<1000 { try fail("user\(index)", "198.51.100.\(index % 200)", now: 1000) }
        #expect(try rows("throttle_failures") == 2200)  // 1000 pairs, 1000 accounts, 200 clients
        try fail("late", "192.0.2.1", now: 1000 + throttle.policy.windowSeconds)
        #expect(try rows("throttle_failures") == 3)  // only the late failure's pair, account and client

        let limiter = RateLimiter(subject: "registration attempts", capacity: 2, refillSeconds: 10)
        for index in 0..<500 { try limiter.take("198.51.100.\(index)", now: 0, on: connection) }
        #expect(try rows("rate_buckets") == 500)
        try limiter.take("192.0.2.1", now: 100, on: connection)
        #expect(try rows("rate_buckets") == 1)
    }

    /// The coordinators' `input(for:)` are pure: a screen's output to their input, no tree, no store.
    @Test func inputMappingIsPure() throws {
        let submit = try ScreenEvent(
            from: LoginScreen.self, "submit", ["email": " ＡＤＡ@example.com ", "password": " pass "], id: "s4")
        #expect(try SignInCoordinator<AppRoute>.input(for: submit) == .signIn(email: "ＡＤＡ@example.com", password: " pass ", screen: "s4"))
        #expect(try SignInCoordinator<AppRoute>.input(for: ScreenEvent(from: FirstRunScreen.self, "logIn")) == .showLogin)
        #expect(try SignInCoordinator<AppRoute>.input(for: ScreenEvent(from: SettingsScreen.self, "done")) == nil)
        #expect(try AccountSettingsCoordinator.input(for: ScreenEvent(from: SettingsScreen.self, "deleteAccount")) == .askToDelete)
        #expect(
            try HomeCoordinator.input(for: ScreenEvent(from: UserScreen.self, "openPost", ["postId": 7])) == .openPost(7))
        let name = try ScreenEvent(from: SignUpProfileScreen.self, "finish", ["displayName": "  Ada  "], id: "s9")
        #expect(try RegistrationCoordinator.input(for: name) == .displayName("Ada", screen: "s9"))
    }
}
