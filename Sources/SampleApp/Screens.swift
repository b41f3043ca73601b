import Foundation
import Navigation
import NavigationMacros

// The shipped app's screens, each declared once as types. Their names, props and events are the
// client contract (`GET /v1/screens` is generated from them).

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

// MARK: Registration, phone and web: three steps with a draft

/// A form field that carries one e-mail.
public struct EmailField: Codable, Sendable, Hashable {
    @Identifier public var email: String
}

/// A form field that carries one password.
public struct PasswordField: Codable, Sendable, Hashable {
    @Password public var password: String
}

/// A form field that carries one display name.
public struct DisplayNameField: Codable, Sendable, Hashable {
    @Identifier public var displayName: String
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
        title: "Choose a password", fields: ["password": .init(label: "Password", autofill: .newPassword, length: Rules.password)],
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
        fields: ["displayName": .init(label: "Display name", autofill: .nickname, length: Rules.displayName)],
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
            "password": .init(label: "Password", autofill: .newPassword, length: Rules.password),
            "displayName": .init(label: "Display name", autofill: .nickname, length: Rules.displayName),
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
    }
    public enum Output: ScreenOutput {
        case submit(Form)
        public static let events: [OutputEvent<Output>] = [.event("submit", Output.submit)]
    }
}

// MARK: Main: home tab

/// A post as screens show it.
@JSONWritable
public struct PostView: Codable, Sendable, Hashable {
    public var id: Int
    public var text: String
    /// When it was posted (`2026-11-21T05:28:14Z` on the wire).
    public var createdAt: Date
    public var author: UserSummary
}

/// A user as lists show them.
@JSONWritable
public struct UserSummary: Codable, Sendable, Hashable {
    public var id: Int
    public var displayName: String
}

/// Names a post to open.
public struct PostReference: Codable, Sendable, Hashable {
    public var postId: Int
}

/// Names a user to open.
public struct UserReference: Codable, Sendable, Hashable {
    public var userId: Int
}

/// Everyone's posts, newest first, 20 at a time.
public enum TimelineScreen: ScreenType {
    public static let name = "timeline"
    public static let summary = "Everyone's posts, newest first, 20 at a time."
    public static let presentation = ScreenPresentation(
        title: "Timeline",
        fields: ["posts": .label("Posts"), "nextCursor": .hidden, "createdAt": .init(display: .timestamp)],
        events: [
            "compose": .primary("New post"), "loadMore": .secondary("Older posts"), "refresh": .secondary("Refresh"),
            "openPost": .secondary("Open"),
        ],
        itemActions: [
            ItemAction("posts", opens: "openPost", with: "postId", title: "text", subtitle: "createdAt"),
            ItemAction("posts.author", opens: "openUser", with: "userId", title: "displayName"),
        ])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var posts: [PostView]
        /// The id to load older posts before; nil at the end.
        public var nextCursor: Int?
    }
    public enum Output: ScreenOutput {
        case openPost(PostReference), openUser(UserReference), compose, loadMore, refresh
        public static let events: [OutputEvent<Output>] = [
            .event("openPost", Output.openPost), .event("openUser", Output.openUser), .event("compose", .compose),
            .event("loadMore", .loadMore), .event("refresh", .refresh),
        ]
    }
}

/// One post.
public enum PostScreen: ScreenType {
    public static let name = "post"
    public static let summary = "One post."
    public static let presentation = ScreenPresentation(
        title: "Post",
        fields: [
            "post": .unlabeled("Post"), "text": .init(display: .heading),
            "createdAt": .init(label: "Posted", display: .timestamp),
        ],
        events: ["popToRoot": .secondary("Back to the timeline")],
        itemActions: [ItemAction("post.author", opens: "openUser", with: "userId", title: "displayName")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var post: PostView
    }
    public enum Output: ScreenOutput {
        case openUser(UserReference), popToRoot
        public static let events: [OutputEvent<Output>] = [.event("openUser", Output.openUser), .event("popToRoot", .popToRoot)]
    }
}

/// A user and their posts.
public enum UserScreen: ScreenType {
    public static let name = "user"
    public static let summary = "A user and their posts."
    public static let presentation = ScreenPresentation(
        title: "Author",
        fields: [
            "user": .unlabeled("Author"), "displayName": .init(display: .heading), "posts": .label("Posts"),
            "createdAt": .init(display: .timestamp),
        ],
        events: ["popToRoot": .secondary("Back to the timeline"), "openPost": .secondary("Open")],
        itemActions: [ItemAction("posts", opens: "openPost", with: "postId", title: "text", subtitle: "createdAt")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var user: UserSummary
        public var posts: [PostView]
    }
    public enum Output: ScreenOutput {
        case openPost(PostReference), popToRoot
        public static let events: [OutputEvent<Output>] = [.event("openPost", Output.openPost), .event("popToRoot", .popToRoot)]
    }
}

/// The text of a post being written.
public struct PostText: Codable, Sendable, Hashable {
    public var text: String
}

/// Write a post of 1 to 500 characters.
public enum ComposeScreen: ScreenType {
    public static let name = "compose"
    public static let summary = "Write a post of 1 to 500 characters."
    public static let presentation = ScreenPresentation(
        title: "New post",
        fields: ["text": .init(label: "What is on your mind?", input: .multiline, length: Rules.post)],
        events: ["submit": .primary("Post"), "cancel": .cancel("Cancel")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var text: String
        public var error: String?
    }
    public enum Output: ScreenOutput {
        case submit(PostText), cancel
        public static let events: [OutputEvent<Output>] = [.event("submit", Output.submit), .event("cancel", .cancel)]
    }
}

// MARK: Main: profile tab

/// The signed-in user as their profile shows them.
@JSONWritable
public struct ProfileUser: Codable, Sendable, Hashable {
    public var id: Int
    public var email: String
    public var displayName: String
}

/// The signed-in user.
public enum ProfileScreen: ScreenType {
    public static let name = "profile"
    public static let summary = "The signed-in user."
    public static let presentation = ScreenPresentation(
        title: "Profile",
        fields: [
            "user": .unlabeled("Account"), "displayName": .init(display: .heading), "email": .label("E-mail"),
            "postCount": .label("Posts"),
        ],
        events: ["edit": .secondary("Edit name"), "openSettings": .secondary("Settings")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        /// Nil for a moment if the user is gone (the session then signs out).
        public var user: ProfileUser?
        public var postCount: Int
    }
    public enum Output: ScreenOutput {
        case edit, openSettings
        public static let events: [OutputEvent<Output>] = [.event("edit", .edit), .event("openSettings", .openSettings)]
    }
}

/// Change the display name.
public enum EditProfileScreen: ScreenType {
    public static let name = "editProfile"
    public static let summary = "Change the display name."
    public static let presentation = ScreenPresentation(
        title: "Edit name",
        fields: ["displayName": .init(label: "Display name", autofill: .nickname, length: Rules.displayName)],
        events: ["save": .primary("Save")])
    @JSONWritable
    public struct Props: Codable, Sendable, Hashable {
        public var displayName: String
        public var error: String?
    }
    public enum Output: ScreenOutput {
        case save(DisplayNameField)
        public static let events: [OutputEvent<Output>] = [.event("save", Output.save)]
    }
}

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
}

/// Change the password.
public enum ChangePasswordScreen: ScreenType {
    public static let name = "changePassword"
    public static let summary = "Change the password."
    public static let presentation = ScreenPresentation(
        title: "Change password",
        fields: [
            "currentPassword": .init(label: "Current password", autofill: .currentPassword),
            "newPassword": .init(label: "New password", autofill: .newPassword, length: Rules.password),
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

/// Every screen of the app.
enum Screens {
    static let all: [any ScreenType.Type] = [
        FirstRunScreen.self, LoginScreen.self, SignUpEmailScreen.self, SignUpPasswordScreen.self,
        SignUpProfileScreen.self, SignUpFormScreen.self, TimelineScreen.self, PostScreen.self, UserScreen.self,
        ComposeScreen.self, ProfileScreen.self, EditProfileScreen.self, SettingsScreen.self,
        ChangePasswordScreen.self, ConfirmDeleteScreen.self,
    ]
}
