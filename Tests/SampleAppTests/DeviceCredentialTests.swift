import AccountProtection
import CoordinatorTesting
import Navigation
import Store
import Secrets
@testable import SampleApp
import Testing

/// Device credentials (OWASP's device cookies): a device that proved the password is judged on
/// its own failures when the account is locked against unknown clients, within limits.
@Suite struct DeviceCredentialTests {
    static let wrong = Credentials(email: "ada@example.com", password: "wrong password entirely")
    static let right = Credentials(email: "ada@example.com", password: AppTester.password)

    /// An account locked by failures from many addresses refuses unknown clients, lets the
    /// owner's device in, and judges that device's credential on its own failures: the same
    /// delays, and past `deviceLimit` it counts for nothing (the lockout applies to it too).
    @Test func aKnownDeviceIsJudgedOnItsOwnFailuresUpToItsLimit() async throws {
        var owner = try await AppTester.sample()
        try await owner.register()
        let registered = try #require(owner.givenDeviceToken)
        var policy = FailureThrottle.Policy()
        policy.accountLimit = 6
        policy.deviceLimit = 5
        let guards = SampleAppGuards(
            signIns: FailureThrottle(subject: "sign-ins", policy: policy), passwordChecks: FailureThrottle(subject: "password checks"),
            registrations: RateLimiter(subject: "registration attempts", capacity: 10, refillSeconds: 6))
        func client(_ address: String, device: String? = nil) async throws -> AppTester {
            var app = try await AppTester.sample(guards: guards, sharing: owner)
            (app.clientAddress, app.deviceToken) = (address, device)
            try await app.send(FirstRunScreen.self, .logIn)
            return app
        }

        var attacker = try await client("203.0.113.1")
        for index in 0..<6 {
            attacker.clientAddress = "203.0.113.\(index)"
            try await attacker.send(LoginScreen.self, .submit(Self.wrong))
        }
        var stranger = try await client("198.51.100.7", device: "made-up")
        await #expect(throws: EventThrottled.self) { try await stranger.send(LoginScreen.self, .submit(Self.right)) }

        var device = try await client("198.51.100.8", device: registered)
        try await device.send(LoginScreen.self, .submit(Self.right))
        #expect(device.top.name == "timeline")
        #expect(device.givenDeviceToken == nil)  // a known device keeps its credential

        // A second passes before each try: three free failures, one after a 1 s delay, then the
        // next one must wait 2 s.
        var thief = try await client("192.0.2.99", device: registered)
        for _ in 0..<4 {
            thief.clock.advance(by: .seconds(1))
            try await thief.send(LoginScreen.self, .submit(Self.wrong))
        }
        thief.clock.advance(by: .seconds(1))
        let waiting = await #expect(throws: EventThrottled.self) { try await thief.send(LoginScreen.self, .submit(Self.wrong)) }
        #expect(waiting?.retryAfterSeconds == 1)
        thief.clock.advance(by: .seconds(1))
        try await thief.send(LoginScreen.self, .submit(Self.wrong))
        thief.clock.advance(by: .seconds(1))
        // Five failures: the credential counts for nothing now, and the account is locked.
        let locked = await #expect(throws: EventThrottled.self) { try await thief.send(LoginScreen.self, .submit(Self.right)) }
        #expect((locked?.retryAfterSeconds ?? 0) > 60)
    }

    /// A device that signs in gets a credential; after a password change only the changing
    /// device's is left, and deleting the account deletes it.
    @Test func aPasswordChangeKeepsOnlyTheChangingDevicesCredential() async throws {
        var owner = try await AppTester.sample()
        try await owner.register()
        owner.deviceToken = owner.givenDeviceToken
        #expect(owner.deviceToken != nil)
        var tokens: Set<String> = [owner.deviceToken!]
        for _ in 0..<2 {
            var other = try await owner.newSession()
            try await other.send(FirstRunScreen.self, .logIn)
            try await other.send(LoginScreen.self, .submit(Self.right))
            tokens.insert(try #require(other.givenDeviceToken))
        }
        #expect(tokens.count == 3)
        #expect(try owner.count("device_credentials") == 3)

        try await owner.send("selectTab", ["tab": "profile"])
        try await owner.send(ProfileScreen.self, .openSettings)
        try await owner.send(SettingsScreen.self, .changePassword)
        try await owner.send(
            ChangePasswordScreen.self,
            .save(PasswordChange(currentPassword: AppTester.password, newPassword: "an entirely new passphrase")))
        #expect(owner.top.name == "settings")
        let kept = try owner.database.query("SELECT token_hash FROM device_credentials") { $0.blob(0) }
        #expect(kept == [Tokens.sha256(owner.deviceToken!)])

        try await owner.send(SettingsScreen.self, .deleteAccount)
        try await owner.send(ConfirmDeleteScreen.self, .confirm(PasswordField(password: "an entirely new passphrase")))
        #expect(try owner.count("device_credentials") == 0)
    }

    /// A user keeps their most recently used credentials only, and an unused one dies.
    @Test func credentialsAreBoundedPerUserAndDie() throws {
        let connection = try AppTester.sampleDatabase()
        try connection.run(
            "INSERT INTO users (email, email_key, password_hash, display_name, created_at) VALUES ('a@x.io', 'a@x.io', 'h', 'A', 0)")
        let devices = DeviceCredentials(lifetimeSeconds: 100, perUser: 3)
        let tokens = try (0..<5).map { try devices.issue(toUser: 1, now: 1000 + Int64($0), on: connection) }
        #expect(try connection.queryFirst("SELECT count(*) FROM device_credentials") { $0.int(0) } == 3)
        #expect(try devices.credential(tokens[0], ofUser: 1, now: 1010, on: connection) == nil)
        let newest = try #require(try devices.credential(tokens[4], ofUser: 1, now: 1010, on: connection))
        #expect(try devices.credential(tokens[4], ofUser: 2, now: 1010, on: connection) == nil)
        #expect(try devices.credential(tokens[4], ofUser: 1, now: 1104, on: connection) == nil)
        try devices.used(newest, now: 1100, on: connection)
        #expect(try devices.credential(tokens[4], ofUser: 1, now: 1104, on: connection) == newest)
    }
}
