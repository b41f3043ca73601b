import Foundation
import Navigation
import NavigationMacros

// The kit's screens. Their wire names (`login`, `signUp.email`, …) are the client contract and
// stay as they are; their texts are English, and an app's `Translations` give them in other
// languages or in its own words.

// MARK: Auth

/// Welcome: sign up or log in.
public enum FirstRunScreen: ScreenType {
    public static let name = "firstRun"
    public static let summary = "Welcome: sign up or log in."
    public static let presentation = ScreenPresentation(
        title: "Welcome", events: ["signUp": .primary("Create an account"), "logIn": .secondary("Log in")])
    public enum Output: ScreenOutput {
        case signUp, logIn
        public static let events: [OutputEvent<Output>] = [.event("signUp", .signUp), .event("logIn", .logIn)]
    }
}

/// An e-mail and a password, as a sign-in or registration form sends them.
public struct Credentials: Codable, Sendable, Hashable {
    @Identifier public var email: String
    @Password public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// Sign in with e-mail and password.
public enum LoginScreen: ScreenType {
    public static let name = "login"
    public static let summary = "Sign in with e-mail and password."
    public static let presentation = ScreenPresentation(
        title: "Log in",
        fields: [
            "email": .init(label: "E-mail", input: .email, autofill: .username),
            "password": .init(label: "Password", autofill: .currentPassword),
        ],
        events: ["submit": .primary("Log in"), "signUp": .secondary("Create an account")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var email: String
        public var error: String?
    }
    public enum Output: ScreenOutput {
        case submit(Credentials)
        case signUp
        public static let events: [OutputEvent<Output>] = [.event("submit", Output.submit), .event("signUp", .signUp)]
    }
}
