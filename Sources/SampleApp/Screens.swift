import Navigation

/// The shipped app's screens. Their names, props and events are the client contract.
public enum Screens {
    // Auth
    public static let firstRun = ScreenDefinition(
        "firstRun", summary: "Welcome: sign up or log in.", events: [EventDeclaration("signUp"), EventDeclaration("logIn")])
    public static let login = ScreenDefinition(
        "login", summary: "Sign in with e-mail and password.",
        props: [.string("email"), .string("error", optional: true)],
        events: [EventDeclaration("submit", [.identifier("email"), .password("password")]), EventDeclaration("signUp")])

    // Registration, phone and web: three steps with a draft.
    public static let signUpEmail = ScreenDefinition(
        "signUp.email", summary: "Registration step 1: e-mail.", props: [.string("email"), .string("error", optional: true)],
        events: [EventDeclaration("next", [.identifier("email")])])
    public static let signUpPassword = ScreenDefinition(
        "signUp.password", summary: "Registration step 2: a password of 15 to 128 characters.",
        props: [.string("error", optional: true)], events: [EventDeclaration("next", [.password("password")])])
    public static let signUpProfile = ScreenDefinition(
        "signUp.profile", summary: "Registration step 3: display name.",
        props: [.string("displayName"), .string("error", optional: true)],
        events: [EventDeclaration("finish", [.identifier("displayName")])])
    // Registration, tablet: one form.
    public static let signUpForm = ScreenDefinition(
        "signUp.form", summary: "Registration in one form (tablet).",
        props: [.string("email"), .string("displayName"), .string("error", optional: true)],
        events: [EventDeclaration("submit", [.identifier("email"), .password("password"), .identifier("displayName")])])

    // Main: home tab
    public static let timeline = ScreenDefinition(
        "timeline", summary: "Everyone's posts, newest first, 20 at a time.",
        props: [.array("posts"), .integer("nextCursor", optional: true)],
        events: [
            EventDeclaration("openPost", [.integer("postId")]), EventDeclaration("openUser", [.integer("userId")]),
            EventDeclaration("compose"), EventDeclaration("loadMore"), EventDeclaration("refresh"),
        ])
    public static let post = ScreenDefinition(
        "post", summary: "One post.", props: [.object("post")],
        events: [EventDeclaration("openUser", [.integer("userId")]), EventDeclaration("popToRoot")])
    public static let user = ScreenDefinition(
        "user", summary: "A user and their posts.", props: [.object("user"), .array("posts")],
        events: [EventDeclaration("openPost", [.integer("postId")]), EventDeclaration("popToRoot")])
    public static let compose = ScreenDefinition(
        "compose", summary: "Write a post of 1 to 500 characters.", props: [.string("text"), .string("error", optional: true)],
        events: [EventDeclaration("submit", [.string("text")]), EventDeclaration("cancel")])

    // Main: profile tab
    public static let profile = ScreenDefinition(
        "profile", summary: "The signed-in user.", props: [.object("user"), .integer("postCount")],
        events: [EventDeclaration("edit"), EventDeclaration("openSettings")])
    public static let editProfile = ScreenDefinition(
        "editProfile", summary: "Change the display name.", props: [.string("displayName"), .string("error", optional: true)],
        events: [EventDeclaration("save", [.identifier("displayName")])])

    // Settings flow, presented modally
    public static let settings = ScreenDefinition(
        "settings", summary: "Account settings.",
        events: [
            EventDeclaration("changePassword"), EventDeclaration("signOut"), EventDeclaration("deleteAccount"),
            EventDeclaration("done"),
        ])
    public static let changePassword = ScreenDefinition(
        "changePassword", summary: "Change the password.", props: [.string("error", optional: true)],
        events: [EventDeclaration("save", [.password("currentPassword"), .password("newPassword")])])
    public static let confirmDelete = ScreenDefinition(
        "confirmDelete", summary: "Alert: confirm deleting the account with the password.",
        props: [.string("message"), .string("error", optional: true)],
        events: [EventDeclaration("confirm", [.password("password")]), EventDeclaration("cancel")])

    public static let all = [
        firstRun, login, signUpEmail, signUpPassword, signUpProfile, signUpForm, timeline, post, user, compose, profile,
        editProfile, settings, changePassword, confirmDelete,
    ]
}
