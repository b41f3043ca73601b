import Navigation
import SignInKit

/// The sample app's links: a post, a user, the signed-in user's settings, registration.
public enum AppRoute: SignInRoute {
    /// A post, on the home tab over the timeline.
    case post(Int)
    /// A user and their posts, on the home tab over the timeline.
    case user(Int)
    /// The signed-in user's settings, presented over the profile tab.
    case settings
    /// A user's settings: only the signed-in user's own (`/settings`); another user's are refused.
    case userSettings(Int)
    /// Registration, for a signed-out session.
    case signUp

    public static let patterns: [LinkPattern<AppRoute>] = [
        LinkPattern("/posts/{id}", summary: "A post.", shows: PostScreen.self, canonical: { .post($0.post.id) }) {
            .post(try $0.int("id"))
        },
        LinkPattern("/users/{id}", summary: "A user and their posts.", shows: UserScreen.self, canonical: { .user($0.user.id) }) {
            .user(try $0.int("id"))
        },
        LinkPattern("/settings", summary: "Your account settings.", shows: SettingsScreen.self, canonical: { _ in .settings }) {
            _ in .settings
        },
        LinkPattern("/users/{id}/settings", summary: "A user's settings: yours only.") { .userSettings(try $0.int("id")) },
        LinkPattern("/signup", summary: "Create an account.", shows: SignUpEmailScreen.self, canonical: { _ in .signUp }) {
            _ in .signUp
        },
    ]

    public var link: String {
        switch self {
        case .post(let id): "/posts/\(id)"
        case .user(let id): "/users/\(id)"
        case .settings: "/settings"
        case .userSettings(let id): "/users/\(id)/settings"
        case .signUp: "/signup"
        }
    }

    /// Everything but registration is for signed-in users.
    public var needsSignIn: Bool { self != .signUp }

    public var opensRegistration: Bool { self == .signUp }
    public var opensAccountSettings: Bool { self == .settings }
}
