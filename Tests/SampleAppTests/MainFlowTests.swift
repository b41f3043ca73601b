import CoordinatorTesting
import Navigation
@testable import SampleApp
import Testing

@Suite struct MainFlowTests {
    static func signedIn() async throws -> AppTester {
        var app = try await AppTester.sample()
        try await app.register()
        return app
    }

    static func posts(_ app: AppTester) -> [JSONValue] { app.top.props["posts"]?.arrayValue ?? [] }

    @Test func mainIsTwoTabs() async throws {
        let app = try await Self.signedIn()
        let layer = app.state["stack"]?.arrayValue?.first
        #expect(layer?["selectedTab"] == "home")
        #expect(layer?["tabs"]?.arrayValue?.map { [$0["name"], $0["title"]] } == [["home", "Home"], ["profile", "Profile"]])
        #expect(app.top.props == ["posts": [], "nextCursor": nil])
        #expect(app.accepted == ["openPost", "openUser", "compose", "loadMore", "refresh", "selectTab"])
    }

    @Test func composeValidatesCancelsAndPosts() async throws {
        var app = try await Self.signedIn()
        try await app.send(TimelineScreen.self, .compose)
        #expect(app.top.name == "compose")
        #expect(app.top.props == ["text": "", "error": nil])
        #expect(app.state["stack"]?.arrayValue?.last?["presentation"] == "modal")
        #expect(app.accepted == ["submit", "cancel", "dismiss"])
        try await app.send(ComposeScreen.self, .submit(PostText(text: "   ")))
        #expect(app.top.props == ["text": "   ", "error": "A post has 1 to 500 characters."])
        try await app.send(ComposeScreen.self, .submit(PostText(text: String(repeating: "x", count: 501))))
        #expect(app.top.props["error"] == "A post has 1 to 500 characters.")
        try await app.send(ComposeScreen.self, .cancel)
        #expect(app.top.name == "timeline")
        #expect(try app.count("posts") == 0)

        try await app.send(TimelineScreen.self, .compose)
        app.clock.advance(by: .seconds(10))  // a post is stamped with the time of its event
        try await app.send(ComposeScreen.self, .submit(PostText(text: "First post")))
        #expect(app.top.name == "timeline")
        #expect(
            Self.posts(app) == [
                [
                    "id": 1, "text": "First post", "createdAt": "2027-01-15T08:00:10Z",
                    "author": ["id": 1, "displayName": "Ada"],
                ]
            ])
    }

    @Test func timelinePagesTwentyAtATimeNewestFirstAndRefreshes() async throws {
        var app = try await Self.signedIn()
        for index in 1...25 {
            try app.database.run(
                "INSERT INTO posts (author_id, text, created_at) VALUES (1, ?1, ?2)", [.text("p\(index)"), .int(index)])
        }
        try await app.send(TimelineScreen.self, .refresh)
        #expect(Self.posts(app).count == 20)
        #expect(Self.posts(app).first?["text"] == "p25")
        #expect(app.top.props["nextCursor"] == 6)
        try await app.send(TimelineScreen.self, .loadMore)
        #expect(Self.posts(app).count == 25)
        #expect(Self.posts(app).last?["text"] == "p1")
        #expect(app.top.props["nextCursor"] == .null)
        try await app.send(TimelineScreen.self, .loadMore)
        #expect(Self.posts(app).count == 25)
    }

    @Test func postsAndUsersPushWithoutEndAndPopToRoot() async throws {
        var app = try await Self.signedIn()
        try await app.send(TimelineScreen.self, .compose)
        try await app.send(ComposeScreen.self, .submit(PostText(text: "Hello")))
        try await app.send(TimelineScreen.self, .openPost(PostReference(postId: 1)))
        #expect(app.top.name == "post")
        #expect(app.top.props["post"]?["text"] == "Hello")
        #expect(app.accepted == ["openUser", "popToRoot", "back", "selectTab"])
        try await app.send(PostScreen.self, .openUser(UserReference(userId: 1)))
        #expect(app.top.name == "user")
        #expect(app.top.props["user"] == ["id": 1, "displayName": "Ada"])
        #expect(app.top.props["posts"]?.arrayValue?.count == 1)
        try await app.send(UserScreen.self, .openPost(PostReference(postId: 1)))
        try await app.send(PostScreen.self, .openUser(UserReference(userId: 1)))
        #expect(app.tree.allScreens.filter { ["post", "user"].contains($0.name) }.count == 4)
        try await app.send(UserScreen.self, .popToRoot)
        #expect(app.top.name == "timeline")
        #expect(app.tree.allScreens.filter { ["post", "user"].contains($0.name) }.isEmpty)
        // Unknown ids change nothing.
        let before = app.tree
        try await app.send(TimelineScreen.self, .openPost(PostReference(postId: 99)))
        try await app.send(TimelineScreen.self, .openUser(UserReference(userId: 99)))
        #expect(app.tree.allScreens == before.allScreens)
    }

    @Test func profileShowsTheUserAndEditsTheDisplayName() async throws {
        var app = try await Self.signedIn()
        try await app.send("selectTab", ["tab": "profile"])
        #expect(app.top.name == "profile")
        #expect(app.top.props == ["user": ["id": 1, "email": "ada@example.com", "displayName": "Ada"], "postCount": 0])
        #expect(app.accepted == ["edit", "openSettings", "selectTab"])
        try await app.send(ProfileScreen.self, .edit)
        #expect(app.top.props == ["displayName": "Ada", "error": nil])
        try await app.send(EditProfileScreen.self, .save(DisplayNameField(displayName: "")))
        #expect(app.top.props == ["displayName": "", "error": "Use a display name of 1 to 50 characters."])
        try await app.send(EditProfileScreen.self, .save(DisplayNameField(displayName: "Ada L.")))
        #expect(app.top.name == "profile")
        #expect(app.top.props["user"]?["displayName"] == "Ada L.")
        #expect(app.state["user"] == ["id": 1, "displayName": "Ada L."])
    }

    @Test func settingsFlowDoneDismissAndChangePassword() async throws {
        var app = try await Self.signedIn()
        try await app.send("selectTab", ["tab": "profile"])
        try await app.send(ProfileScreen.self, .openSettings)
        #expect(app.top.name == "settings")
        #expect(app.accepted == ["changePassword", "signOut", "deleteAccount", "done", "dismiss"])
        try await app.send(SettingsScreen.self, .done)
        #expect(app.top.name == "profile")
        try await app.send(ProfileScreen.self, .openSettings)
        try await app.send("dismiss")
        #expect(app.top.name == "profile")
        #expect(app.tree.coordinatorCount == 4)  // app, main, home, profile: no settings left

        try await app.send(ProfileScreen.self, .openSettings)
        try await app.send(SettingsScreen.self, .changePassword)
        #expect(app.top.props == ["error": nil])
        try await app.send(ChangePasswordScreen.self, .save(PasswordChange(currentPassword: "wrong password entirely", newPassword: AppTester.password + "!")))
        #expect(app.top.props == ["error": "The password is not correct."])
        try await app.send(ChangePasswordScreen.self, .save(PasswordChange(currentPassword: AppTester.password, newPassword: "short")))
        #expect(app.top.props == ["error": "Use a password of 15 to 128 characters."])
        let outcome = try await app.send(
            ChangePasswordScreen.self,
            .save(PasswordChange(currentPassword: AppTester.password, newPassword: "an entirely new passphrase")))
        #expect(outcome.credentialsRotated)
        #expect(outcome.endedSessionsOfUsers == [1])  // the user's other sessions end with the change
        #expect(app.top.name == "settings")
    }

    @Test func signOutReturnsToTheAuthFlow() async throws {
        var app = try await Self.signedIn()
        try await app.send("selectTab", ["tab": "profile"])
        try await app.send(ProfileScreen.self, .openSettings)
        let outcome = try await app.send(SettingsScreen.self, .signOut)
        #expect(outcome.credentialsRotated)
        #expect(app.top.name == "firstRun")
        #expect(app.state["user"] == .null)
        #expect(app.tree.coordinatorCount == 2)
    }

    @Test func deleteAccountAsksForThePasswordInAnAlert() async throws {
        var app = try await Self.signedIn()
        try await app.send(TimelineScreen.self, .compose)
        try await app.send(ComposeScreen.self, .submit(PostText(text: "to be deleted")))
        try await app.send("selectTab", ["tab": "profile"])
        #expect(app.top.props["postCount"] == 1)
        try await app.send(ProfileScreen.self, .openSettings)
        try await app.send(SettingsScreen.self, .deleteAccount)
        #expect(app.top.name == "confirmDelete")
        #expect(app.state["stack"]?.arrayValue?.last?["presentation"] == "alert")
        #expect(app.accepted == ["confirm", "cancel", "dismiss"])
        try await app.send(ConfirmDeleteScreen.self, .cancel)
        #expect(app.top.name == "settings")
        try await app.send(SettingsScreen.self, .deleteAccount)
        try await app.send(ConfirmDeleteScreen.self, .confirm(PasswordField(password: "wrong password entirely")))
        #expect(app.top.props["error"] == "The password is not correct.")
        #expect(try app.count("users") == 1)
        let outcome = try await app.send(ConfirmDeleteScreen.self, .confirm(PasswordField(password: AppTester.password)))
        #expect(outcome.endedSessionsOfUsers == [1])  // every other session of the user ends too
        #expect(app.top.name == "firstRun")
        #expect(app.state["user"] == .null)
        #expect(try app.count("users") == 0)
        #expect(try app.count("posts") == 0)
    }

    /// A deleted user's id is never handed out again, and a session that still names a deleted
    /// user is signed out at its next event instead of acting as whoever has the id now.
    @Test func userIdsAreNeverReusedAndAGoneUserIsSignedOut() async throws {
        var first = try await Self.signedIn()
        // A session the account's deletion does not end (it ends the sessions `first` shares a
        // server with): the user check of its next event is what protects it.
        var stale = try await AppTester.sample(sharing: first)
        try await stale.send(FirstRunScreen.self, .logIn)
        try await stale.send(LoginScreen.self, .submit(Credentials(email: "ada@example.com", password: AppTester.password)))
        #expect(stale.state["user"]?["id"] == 1)

        try await first.send("selectTab", ["tab": "profile"])
        try await first.send(ProfileScreen.self, .openSettings)
        try await first.send(SettingsScreen.self, .deleteAccount)
        try await first.send(ConfirmDeleteScreen.self, .confirm(PasswordField(password: AppTester.password)))
        var newcomer = try await first.newSession()
        try await newcomer.register(email: "bob@example.com", name: "Bob")
        #expect(newcomer.state["user"] == ["id": 2, "displayName": "Bob"])

        let outcome = try await stale.send(TimelineScreen.self, .compose)
        #expect(outcome.credentialsRotated)
        #expect(stale.state["user"] == .null)
        #expect(stale.top.name == "firstRun")
        #expect(try stale.count("posts") == 0)
    }

    /// Re-checking the password (delete account, change password) is throttled like sign-ins.
    @Test func passwordRechecksAreThrottled() async throws {
        var app = try await Self.signedIn()
        try await app.send("selectTab", ["tab": "profile"])
        try await app.send(ProfileScreen.self, .openSettings)
        try await app.send(SettingsScreen.self, .deleteAccount)
        // A second before each try: three free failures, one after a 1 s delay, then a wait of 2 s.
        for _ in 0..<4 {
            app.clock.advance(by: .seconds(1))
            try await app.send(ConfirmDeleteScreen.self, .confirm(PasswordField(password: "wrong password entirely")))
        }
        app.clock.advance(by: .seconds(1))
        let before = app.tree
        await #expect(throws: EventThrottled.self) {
            try await app.send(ConfirmDeleteScreen.self, .confirm(PasswordField(password: AppTester.password)))
        }
        #expect(app.tree == before)
        #expect(try app.count("users") == 1)
    }

    /// A client can open only so many pages of the timeline before the session is full.
    @Test func loadingAndPushingWithoutEndStopsAtTheSessionLimit() async throws {
        var app = try await Self.signedIn()
        try await app.send(TimelineScreen.self, .compose)
        try await app.send(ComposeScreen.self, .submit(PostText(text: "a post to open")))
        var refusal: EventRejection?
        for _ in 0..<200 where refusal == nil {
            do {
                // A user's page opens their post, the post opens its author: pushing without end.
                switch app.top.name {
                case "user": try await app.send(UserScreen.self, .openPost(PostReference(postId: 1)))
                case "post": try await app.send(PostScreen.self, .openUser(UserReference(userId: 1)))
                default: try await app.send(TimelineScreen.self, .openUser(UserReference(userId: 1)))
                }
            } catch let rejection as EventRejection {
                refusal = rejection
            }
        }
        #expect(refusal == .sessionLimit("\(SampleApp.navigation.limits.maxScreens) screens"))
        #expect(app.tree.allScreens.count == SampleApp.navigation.limits.maxScreens)
        if app.top.name == "user" {
            try await app.send(UserScreen.self, .popToRoot)
        } else {
            try await app.send(PostScreen.self, .popToRoot)
        }
        #expect(app.top.name == "timeline")
    }
}
