import CoordinatorFlowTesting
import Navigation
import SignInKit
import Testing

@testable import Greeter

/// The account tab, all of it the sign-in kit's: registration in three steps, sign-out, sign-in
/// with a wrong and the right password, and the account's deletion.
@Suite struct AccountTests {
    @Test func registerSignOutSignInAndDelete() async throws {
        var app = try await AppTester(Greeter.served)
        try await app.send("selectTab", ["tab": "account"])
        try await app.send(FirstRunScreen.self, .signUp)
        try await app.send(SignUpEmailScreen.self, .next(EmailField(email: "ada@example.com")))
        try await app.send(SignUpPasswordScreen.self, .next(PasswordField(password: "correct horse battery staple")))
        try await app.send(SignUpProfileScreen.self, .finish(DisplayNameField(displayName: "Ada")))
        #expect(app.tree.user?.displayName == "Ada")
        #expect(app.top.name == SettingsScreen.name)  // signed in: the account's settings
        #expect(try app.rows(in: "users") == 1)

        try await app.send(SettingsScreen.self, .signOut)
        #expect(app.tree.user == nil && app.top.name == FirstRunScreen.name)

        try await app.send(FirstRunScreen.self, .logIn)
        try await app.send(LoginScreen.self, .submit(Credentials(email: "ada@example.com", password: "not the password at all")))
        #expect(try app.props(of: LoginScreen.self).error == AccountRules.wrongCredentials)
        try await app.send(LoginScreen.self, .submit(Credentials(email: "ADA@example.com", password: "correct horse battery staple")))
        #expect(app.tree.user?.displayName == "Ada")

        try await app.send(SettingsScreen.self, .deleteAccount)
        try await app.send(ConfirmDeleteScreen.self, .confirm(PasswordField(password: "correct horse battery staple")))
        #expect(app.tree.user == nil && app.top.name == FirstRunScreen.name)
        #expect(try app.rows(in: "users") == 0)
        // The other tabs never moved.
        try await app.send("selectTab", ["tab": "greet"])
        #expect(app.top.name == HelloScreen.name)
    }
}
