import Foundation
import CoordinatorTesting
import Navigation
@testable import SampleApp
import Secrets
import Testing

/// Issue 19, item 10: a password is the same password in every Unicode form (NIST SP 800-63B:
/// normalised before hashing); hashes made before normalisation keep working and are replaced.
@Suite struct PasswordNormalizationTests {
    static let composed = "p\u{00E4}ssw\u{00F6}rd f\u{00FC}r Z\u{00F6}e \u{FB01}ne"  // ä ö ü, the ﬁ ligature
    static let decomposed = composed.decomposedStringWithCanonicalMapping
    static let compatibility = composed.decomposedStringWithCompatibilityMapping  // NFKD: ﬁ becomes f, i

    /// Registers `email` with `password` through the three steps.
    static func register(_ email: String, password: String, on app: inout AppTester) async throws {
        try await app.send(FirstRunScreen.self, .signUp)
        try await app.send(SignUpEmailScreen.self, .next(EmailField(email: email)))
        try await app.send(SignUpPasswordScreen.self, .next(PasswordField(password: password)))
        try await app.send(SignUpProfileScreen.self, .finish(DisplayNameField(displayName: "Zoë")))
    }

    static func signIn(_ email: String, password: String, on connection: AppTester) async throws -> AppTester {
        var app = try await connection.newSession()
        try await app.send(FirstRunScreen.self, .logIn)
        try await app.send(LoginScreen.self, .submit(Credentials(email: email, password: password)))
        return app
    }

    @Test func aPasswordMatchesInEveryUnicodeForm() async throws {
        #expect(!Array(Self.composed.utf8).elementsEqual(Self.decomposed.utf8))
        var owner = try await AppTester.sample()
        try await Self.register("zoe@example.com", password: Self.composed, on: &owner)
        #expect(owner.top.name == "timeline")
        for form in [Self.composed, Self.decomposed, Self.compatibility] {
            let device = try await Self.signIn("zoe@example.com", password: form, on: owner)
            #expect(device.top.name == "timeline", "\(form.unicodeScalars.count) scalars")
        }
        // A re-check takes the decomposed form too: the password changes.
        try await owner.send("selectTab", ["tab": "profile"])
        try await owner.send(ProfileScreen.self, .openSettings)
        try await owner.send(SettingsScreen.self, .changePassword)
        try await owner.send(
            ChangePasswordScreen.self, .save(PasswordChange(currentPassword: Self.decomposed, newPassword: AppTester.password)))
        #expect(owner.top.name == "settings")
    }

    /// A hash of the password as typed (made before normalisation) verifies, and the sign-in
    /// replaces it with a hash of the normalised form, after which every form signs in.
    @Test func aHashOfThePasswordAsTypedStillVerifiesAndIsReplaced() async throws {
        var owner = try await AppTester.sample()
        try await owner.register(email: "ada@example.com")
        let legacy = try AppTester.passwordHasher.hash(Self.decomposed)
        try owner.database.run("UPDATE users SET password_hash = ?1", [.text(legacy)])

        let first = try await Self.signIn("ada@example.com", password: Self.decomposed, on: owner)
        #expect(first.top.name == "timeline")
        let stored = try #require(try owner.database.queryFirst("SELECT password_hash FROM users") { $0.string(0) })
        #expect(stored != legacy)
        #expect(AppTester.passwordHasher.verify(Self.composed.precomposedStringWithCompatibilityMapping, against: stored))
        for form in [Self.composed, Self.decomposed, Self.compatibility] {
            let device = try await Self.signIn("ada@example.com", password: form, on: owner)
            #expect(device.top.name == "timeline", "\(form.unicodeScalars.count) scalars")
        }
        // A wrong password in a decomposed form is still wrong.
        let wrong = try await Self.signIn("ada@example.com", password: "wro\u{0308}ng password entirely", on: owner)
        #expect(wrong.top.props["error"] == "Wrong e-mail or password.")
    }

    /// 15 to 128 code points of the normalised password: 70 accented letters typed decomposed
    /// (140 code points) are a valid password; 10 of them (20 code points) are too short.
    @Test func theLengthRuleCountsTheNormalisedPassword() async throws {
        var app = try await AppTester.sample()
        try await app.send(FirstRunScreen.self, .signUp)
        try await app.send(SignUpEmailScreen.self, .next(EmailField(email: "long@example.com")))
        try await app.send(SignUpPasswordScreen.self, .next(PasswordField(password: String(repeating: "e\u{0301}", count: 10))))
        #expect(app.top.props["error"] == "Use a password of 15 to 128 characters.")
        try await app.send(SignUpPasswordScreen.self, .next(PasswordField(password: String(repeating: "e\u{0301}", count: 70))))
        #expect(app.top.name == "signUp.profile")
    }
}
