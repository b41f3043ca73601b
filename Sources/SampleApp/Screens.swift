import Foundation
import Navigation
import NavigationMacros
import SignInKit

// The shipped app's screens, each declared once as types. Their names, props and events are the
// client contract (`GET /v1/screens` is generated from them).

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
        fields: ["displayName": .init(label: "Display name", autofill: .nickname, length: AccountRules.displayName)],
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

/// Every screen of the app: the sign-in kit's, then its own.
enum Screens {
    static let all: [any ScreenType.Type] = SignInKit.screens + [
        TimelineScreen.self, PostScreen.self, UserScreen.self, ComposeScreen.self, ProfileScreen.self,
        EditProfileScreen.self,
    ]
}
