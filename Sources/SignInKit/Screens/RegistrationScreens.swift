import Foundation
import Navigation
import NavigationMacros

// The kit's screens. Their wire names (`login`, `signUp.email`, …) are the client contract and
// stay as they are; their texts are English, and an app's `Translations` give them in other
// languages or in its own words.

// MARK: Registration, phone and web: three steps with a draft

/// A form field that carries one e-mail.
public struct EmailField: Codable, Sendable, Hashable {
    @Identifier public var email: String

    public init(email: String) { self.email = email }
}

/// A form field that carries one password.
public struct PasswordField: Codable, Sendable, Hashable {
    @Password public var password: String

    public init(password: String) { self.password = password }
}

/// A form field that carries one display name.
public struct DisplayNameField: Codable, Sendable, Hashable {
    @Identifier public var displayName: String

    public init(displayName: String) { self.displayName = displayName }
}

/// Registration step 1: e-mail.
public enum SignUpEmailScreen: ScreenType {
    public static let name = "signUp.email"
    public static let summary = "Registration step 1: e-mail."
    public static let presentation = ScreenPresentation(
        title: "Create an account", fields: ["email": .init(label: "E-mail", input: .email, autofill: .username)],
        events: ["next": .primary("Continue")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var email: String
        public var error: String?
    }
    public enum Output: ScreenOutput {
        case next(EmailField)
        public static let events: [OutputEvent<Output>] = [.event("next", Output.next)]
    }
}

/// Registration step 2: a password of 15 to 128 characters.
public enum SignUpPasswordScreen: ScreenType {
    public static let name = "signUp.password"
    public static let summary = "Registration step 2: a password of 15 to 128 characters."
    public static let presentation = ScreenPresentation(
        title: "Choose a password", fields: ["password": .init(label: "Password", autofill: .newPassword, length: AccountRules.password)],
        events: ["next": .primary("Continue")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var error: String?
    }
    public enum Output: ScreenOutput {
        case next(PasswordField)
        public static let events: [OutputEvent<Output>] = [.event("next", Output.next)]
    }
}

/// Registration step 3: display name.
public enum SignUpProfileScreen: ScreenType {
    public static let name = "signUp.profile"
    public static let summary = "Registration step 3: display name."
    public static let presentation = ScreenPresentation(
        title: "Your name",
        fields: ["displayName": .init(label: "Display name", autofill: .nickname, length: AccountRules.displayName)],
        events: ["finish": .primary("Create account")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var displayName: String
        public var error: String?
    }
    public enum Output: ScreenOutput {
        case finish(DisplayNameField)
        public static let events: [OutputEvent<Output>] = [.event("finish", Output.finish)]
    }
}

/// Registration in one form (tablet).
public enum SignUpFormScreen: ScreenType {
    public static let name = "signUp.form"
    public static let summary = "Registration in one form (tablet)."
    public static let presentation = ScreenPresentation(
        title: "Create an account",
        fields: [
            "email": .init(label: "E-mail", input: .email, autofill: .username),
            "password": .init(label: "Password", autofill: .newPassword, length: AccountRules.password),
            "displayName": .init(label: "Display name", autofill: .nickname, length: AccountRules.displayName),
        ],
        events: ["submit": .primary("Create account")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var email: String
        public var displayName: String
        public var error: String?
    }
    public struct Form: Codable, Sendable, Hashable {
        @Identifier public var email: String
        @Password public var password: String
        @Identifier public var displayName: String

        public init(email: String, password: String, displayName: String) {
            (self.email, self.password, self.displayName) = (email, password, displayName)
        }
    }
    public enum Output: ScreenOutput {
        case submit(Form)
        public static let events: [OutputEvent<Output>] = [.event("submit", Output.submit)]
    }
}
