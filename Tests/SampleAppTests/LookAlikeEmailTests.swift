import Foundation
import CoordinatorTesting
import Navigation
@testable import SampleApp
import Testing

/// Issue 19, item 9: addresses that look like a registered one are that account; blank and
/// stray-accent addresses are refused.
@Suite struct LookAlikeEmailTests {
    /// Starts a registration on `connection` and submits `email` at step 1.
    static func tryToRegister(_ email: String, on connection: AppTester) async throws -> AppTester {
        var app = try await connection.newSession()
        try await app.send(FirstRunScreen.self, .signUp)
        try await app.send(SignUpEmailScreen.self, .next(EmailField(email: email)))
        return app
    }

    @Test func theIssuesLookAlikesAreAlreadyRegistered() async throws {
        var owner = try await AppTester.sample()
        try await owner.register(email: "ada@example.com")
        for spelling in [
            "\u{1D00}da@example.com",  // ᴀ LATIN LETTER SMALL CAPITAL A
            "\u{2C81}da@example.com",  // ⲁ COPTIC SMALL LETTER ALFA
            "\u{237A}da@example.com",  // ⍺ APL FUNCTIONAL SYMBOL ALPHA
            "a\u{146F}a@example.com",  // ᑯ CANADIAN SYLLABICS KO
            "\u{0227}da@example.com",  // ȧ, a dot above
            "a\u{0307}da@example.com",  // a and a combining dot above (NFC makes it ȧ)
            "\u{00E1}d\u{00E1}@example.com",  // ádá
            "\u{A4EE}DA@example.com",  // ꓮ LISU LETTER A
            "\u{13AA}da@example.com",  // Ꭺ CHEROKEE LETTER GO
            "ada@ex\u{2C81}mple.com",
        ] {
            let app = try await Self.tryToRegister(spelling, on: owner)
            #expect(app.top.props["error"] == "This e-mail is already registered.", "\(spelling.unicodeScalars.map(\.value))")
        }
        #expect(try owner.count("users") == 1)
    }

    @Test func anAccentedAddressIsOneAccountInEveryNormalForm() async throws {
        var owner = try await AppTester.sample()
        try await owner.register(email: "jos\u{00E9}@example.com", name: "José")
        for spelling in ["jose\u{0301}@example.com", "JOSE\u{0301}@example.com", "jose@example.com", "Jos\u{00C9}@example.com"] {
            let app = try await Self.tryToRegister(spelling, on: owner)
            #expect(app.top.props["error"] == "This e-mail is already registered.", "\(spelling.unicodeScalars.map(\.value))")
        }
        // Signing in with the decomposed form is signing in to the account.
        var device = try await owner.newSession()
        try await device.send(FirstRunScreen.self, .logIn)
        try await device.send(LoginScreen.self, .submit(Credentials(email: "jose\u{0301}@example.com", password: AppTester.password)))
        #expect(device.state["user"] == ["id": 1, "displayName": "José"])
    }

    /// Blank-looking characters are refused like invisible ones (`422`); a combining mark that
    /// no keyboard types is "not a valid e-mail address"; scripts that write with marks register.
    @Test func blankCharactersAndStrayMarksAreRefused() async throws {
        var owner = try await AppTester.sample()
        try await owner.register(email: "ada@example.com")
        for blank in ["ada\u{2800}@example.com", "ada\u{3164}@example.com", "\u{115F}ada@example.com", "ada@example.com\u{FFA0}"] {
            var app = try await owner.newSession()
            try await app.send(FirstRunScreen.self, .signUp)
            await #expect(throws: EventRejection.self, "\(blank.unicodeScalars.map(\.value))") {
                try await app.send(SignUpEmailScreen.self, .next(EmailField(email: blank)))
            }
        }
        for stray in [
            "i\u{0307}da@example.com", "ada\u{0301}\u{0301}@example.com", "ada@\u{0301}example.com", "x\u{20DD}@example.com",
            "Z\u{0301}\u{0301}\u{0301}\u{0301}\u{0301}@example.com",
        ] {
            let app = try await Self.tryToRegister(stray, on: owner)
            #expect(app.top.props["error"] == "Enter a valid e-mail address.", "\(stray.unicodeScalars.map(\.value))")
        }
        for written in ["नमस्ते@example.com", "สวัสดี@example.com", "がく@example.com"] {
            let app = try await Self.tryToRegister(written, on: owner)
            #expect(app.top.name == "signUp.password", "\(written)")
        }
        #expect(try owner.count("users") == 1)
    }
}
