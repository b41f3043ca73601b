import Foundation
import Navigation
import NavigationMacros

// The kit's screens. Their wire names (`login`, `signUp.email`, …) are the client contract and
// stay as they are; their texts are English, and an app's `Translations` give them in other
// languages or in its own words.

// MARK: Settings flow, presented modally

/// Account settings.
public enum SettingsScreen: ScreenType {
    public static let name = "settings"
    public static let summary = "Account settings."
    public static let presentation = ScreenPresentation(
        title: "Settings",
        events: [
            "changePassword": .secondary("Change password"), "signOut": .secondary("Sign out"),
            "deleteAccount": .destructive("Delete account"), "done": .primary("Done"),
        ])
    public enum Output: ScreenOutput {
        case changePassword, signOut, deleteAccount, done
        public static let events: [OutputEvent<Output>] = [
            .event("changePassword", .changePassword), .event("signOut", .signOut),
            .event("deleteAccount", .deleteAccount), .event("done", .done),
        ]
    }
}

/// The current and the new password.
public struct PasswordChange: Codable, Sendable, Hashable {
    @Password public var currentPassword: String
    @Password public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        (self.currentPassword, self.newPassword) = (currentPassword, newPassword)
    }
}

/// Change the password.
public enum ChangePasswordScreen: ScreenType {
    public static let name = "changePassword"
    public static let summary = "Change the password."
    public static let presentation = ScreenPresentation(
        title: "Change password",
        fields: [
            "currentPassword": .init(label: "Current password", autofill: .currentPassword),
            "newPassword": .init(label: "New password", autofill: .newPassword, length: AccountRules.password),
        ],
        events: ["save": .primary("Save")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var error: String?
    }
    public enum Output: ScreenOutput {
        case save(PasswordChange)
        public static let events: [OutputEvent<Output>] = [.event("save", Output.save)]
    }
}

/// Alert: confirm deleting the account with the password.
public enum ConfirmDeleteScreen: ScreenType {
    public static let name = "confirmDelete"
    public static let summary = "Alert: confirm deleting the account with the password."
    public static let presentation = ScreenPresentation(
        title: "Delete your account?",
        fields: ["message": .unlabeled("Message"), "password": .init(label: "Password", autofill: .currentPassword)],
        events: ["confirm": .destructive("Delete account"), "cancel": .cancel("Keep it")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var message: String
        public var error: String?
    }
    public enum Output: ScreenOutput {
        case confirm(PasswordField), cancel
        public static let events: [OutputEvent<Output>] = [.event("confirm", Output.confirm), .event("cancel", .cancel)]
    }
}
