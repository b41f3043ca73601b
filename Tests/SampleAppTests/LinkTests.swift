import CoordinatorTesting
import Navigation
@testable import SampleApp
import Testing

/// Issue 24: each link gives the stack the taps that reach it give (whole-state comparison), at
/// creation and on a live session, through sign-in when it needs a user; a bad link changes nothing.
@Suite struct LinkTests {
    /// A database where Ada (user 1) wrote post 1 and Bob (user 2) post 2; Ada's session, signed
    /// in, on the timeline.
    static func world() async throws -> AppTester {
        var bob = try await AppTester.sample()
        try await bob.register(email: "bob@example.com", name: "Bob")
        var ada = try await bob.newSession()
        try await ada.register(email: "ada@example.com", name: "Ada")
        try await ada.send(TimelineScreen.self, .compose)
        try await ada.send(ComposeScreen.self, .submit(PostText(text: "Ada's post")))
        try await bob.send(TimelineScreen.self, .compose)
        try await bob.send(ComposeScreen.self, .submit(PostText(text: "Bob's post")))
        try await ada.send(TimelineScreen.self, .refresh)
        return ada
    }

    /// A new session of `other`'s database opened at `link`.
    static func session(at link: String?, sharing other: AppTester, platform: Platform = .phone) async throws -> AppTester {
        try await AppTester(AppTester.served(), platform: platform, link: link, database: other.database, clock: other.clock)
    }

    /// Signs a session that shows the login screen in as `email`.
    static func signIn(_ app: inout AppTester, _ email: String = "bob@example.com") async throws {
        try await app.send(LoginScreen.self, .submit(Credentials(email: email, password: AppTester.password)))
    }

    typealias Taps = @Sendable (inout AppTester) async throws -> Void

    /// The links of the sample app with the taps from the timeline (Bob's, signed in) that reach
    /// the same screens.
    static let fromTimeline: [(link: String, taps: Taps)] = [
        ("/posts/1", { try await $0.send(TimelineScreen.self, .openPost(PostReference(postId: 1))) }),
        ("/users/1", { try await $0.send(TimelineScreen.self, .openUser(UserReference(userId: 1))) }),
        (
            "/settings",
            { app in
                try await app.send("selectTab", ["tab": "profile"])
                try await app.send(ProfileScreen.self, .openSettings)
            }
        ),
        (
            "/users/1/settings",
            { app in
                try await app.send("selectTab", ["tab": "profile"])
                try await app.send(ProfileScreen.self, .openSettings)
            }
        ),
    ]

    @Test(arguments: 0..<4) func aLinkOnALiveSessionGivesTheStackItsTapsGive(_ index: Int) async throws {
        let (link, taps) = Self.fromTimeline[index]
        let world = try await Self.world()
        var bob = try await Self.session(at: nil, sharing: world)
        try await bob.send(FirstRunScreen.self, .logIn)
        try await Self.signIn(&bob)
        var tapped = bob
        try await taps(&tapped)
        var linked = bob
        try await linked.open(link)
        #expect(linked.shown == tapped.shown)
        #expect(linked.version == bob.version + 1)
    }

    @Test(arguments: 0..<4) func aLinkAtCreationSignsInFirstAndGivesTheStackItsTapsGive(_ index: Int) async throws {
        let (link, taps) = Self.fromTimeline[index]
        let world = try await Self.world()
        var linked = try await Self.session(at: link, sharing: world)
        // Sign-in first: the screens a user taps to reach it.
        var start = try await Self.session(at: nil, sharing: world)
        try await start.send(FirstRunScreen.self, .logIn)
        #expect(linked.shown == start.shown)
        #expect(linked.version == 1)
        try await Self.signIn(&linked)
        var tapped = start
        try await Self.signIn(&tapped)
        try await taps(&tapped)
        #expect(linked.shown == tapped.shown)
        #expect(linked.tree.user?.displayName == "Bob")
    }

    @Test func aLinkContinuesAfterRegistration() async throws {
        let world = try await Self.world()
        var linked = try await Self.session(at: "/posts/2", sharing: world)
        var tapped = try await Self.session(at: nil, sharing: world)
        try await tapped.send(FirstRunScreen.self, .logIn)
        for app in [0, 1] {
            var session = app == 0 ? linked : tapped
            try await session.send(LoginScreen.self, .signUp)
            try await session.send(SignUpEmailScreen.self, .next(EmailField(email: "cy\(app)@example.com")))
            try await session.send(SignUpPasswordScreen.self, .next(PasswordField(password: AppTester.password)))
            // Back and forward again inside registration keeps the link.
            try await session.send("back")
            try await session.send(SignUpPasswordScreen.self, .next(PasswordField(password: AppTester.password)))
            try await session.send(SignUpProfileScreen.self, .finish(DisplayNameField(displayName: "Cy")))
            if app == 0 { linked = session } else { tapped = session }
        }
        try await tapped.send(TimelineScreen.self, .openPost(PostReference(postId: 2)))
        // The two users differ (ids 3 and 4, on their profile tab); the rest is alike.
        func alike(_ app: AppTester) -> [JSONValue?] {
            let layers = app.shown["stack"]?.arrayValue ?? []
            return [
                app.shown["top"], app.shown["link"], .int(layers.count), layers.first?["selectedTab"],
                layers.first?["tabs"]?[0],
            ]
        }
        #expect(alike(linked) == alike(tapped))
        #expect(linked.top.name == "post")
        #expect(linked.state["link"] == "/posts/2")
    }

    @Test func aSignUpLinkOpensRegistrationForASignedOutSession() async throws {
        let world = try await Self.world()
        let linked = try await Self.session(at: "/signup", sharing: world)
        var tapped = try await Self.session(at: nil, sharing: world)
        try await tapped.send(FirstRunScreen.self, .signUp)
        #expect(linked.shown == tapped.shown)
        #expect(linked.state["link"] == "/signup")
        // On a live session at the login screen: the same stack.
        var live = try await Self.session(at: nil, sharing: world)
        try await live.send(FirstRunScreen.self, .logIn)
        try await live.open("/signup")
        #expect(live.top.name == "signUp.email")
        #expect(live.state["stack"]?[0]?["screens"]?.arrayValue?.map { $0["name"] } == ["firstRun", "signUp.email"])
        // Already there: nothing changes but the version.
        let before = live.shown
        try await live.open("/signup")
        #expect(live.shown == before)
    }

    @Test func backingOutOfSignInDropsTheLink() async throws {
        let world = try await Self.world()
        var linked = try await Self.session(at: "/posts/1", sharing: world)
        try await linked.send("back")
        try await linked.send(FirstRunScreen.self, .logIn)
        try await Self.signIn(&linked)
        #expect(linked.top.name == "timeline")
        #expect(linked.state["link"] == nil)
    }

    @Test func openingAnotherPostReplacesTheTopScreenOnly() async throws {
        let world = try await Self.world()
        var ada = world
        try await ada.send(TimelineScreen.self, .openPost(PostReference(postId: 1)))
        #expect(ada.state["link"] == "/posts/1")
        let before = ada.shown
        try await ada.open("/posts/2")
        var tapped = world
        try await tapped.send(TimelineScreen.self, .openPost(PostReference(postId: 1)))
        try await tapped.send("back")
        try await tapped.send(TimelineScreen.self, .openPost(PostReference(postId: 2)))
        #expect(ada.shown == tapped.shown)
        #expect(ada.state["link"] == "/posts/2")
        // The tab layer and the timeline are the ones that were there; only the post changed.
        let home = { (state: JSONValue) in state["stack"]?[0]?["tabs"]?[0]?["screens"]?.arrayValue ?? [] }
        #expect(home(ada.shown).first == home(before).first)
        #expect(home(ada.shown).count == 2)
        #expect(home(ada.shown)[1]["id"] != home(before)[1]["id"])
        #expect(ada.shown["stack"]?[0]?["tabs"]?[1] == before["stack"]?[0]?["tabs"]?[1])
        // The same link again changes nothing.
        let now = ada.shown
        try await ada.open("/posts/2")
        #expect(ada.shown == now)
    }

    @Test func aLinkClosesWhatIsPresentedAsTheTapsWould() async throws {
        let world = try await Self.world()
        // Settings with change password pushed → a post: back, done, home tab, the post.
        var start = world
        try await start.send("selectTab", ["tab": "profile"])
        try await start.send(ProfileScreen.self, .openSettings)
        try await start.send(SettingsScreen.self, .changePassword)
        var tapped = start
        try await tapped.send("back")
        try await tapped.send(SettingsScreen.self, .done)
        try await tapped.send("selectTab", ["tab": "home"])
        try await tapped.send(TimelineScreen.self, .openPost(PostReference(postId: 2)))
        var linked = start
        try await linked.open("/posts/2")
        #expect(linked.shown == tapped.shown)
        // … and /settings from there goes back to the settings screen.
        var again = start
        try await again.open("/settings")
        var back = start
        try await back.send("back")
        #expect(again.shown == back.shown)
        // The compose sheet → settings: cancel, profile tab, settings.
        var composing = world
        try await composing.send(TimelineScreen.self, .compose)
        var tappedSettings = composing
        try await tappedSettings.send(ComposeScreen.self, .cancel)
        try await tappedSettings.send("selectTab", ["tab": "profile"])
        try await tappedSettings.send(ProfileScreen.self, .openSettings)
        try await composing.open("/settings")
        #expect(composing.shown == tappedSettings.shown)
        #expect(composing.state["link"] == "/settings")
    }

    @Test func aBadLinkChangesNothing() async throws {
        let world = try await Self.world()
        var ada = world
        try await ada.send(TimelineScreen.self, .openPost(PostReference(postId: 1)))
        let expected: [(String, LinkRejection)] = [
            ("/nowhere", .unknown(link: "/nowhere")),
            ("/posts", .unknown(link: "/posts")),
            ("/posts/1/2", .unknown(link: "/posts/1/2")),
            ("/posts/abc", .invalid([FieldError(field: "id", message: "must be a whole number from 1 to \(Int.max)")])),
            ("/posts/0", .invalid([FieldError(field: "id", message: "must be a whole number from 1 to \(Int.max)")])),
            ("/posts/01", .invalid([FieldError(field: "id", message: "must be a whole number from 1 to \(Int.max)")])),
            ("/posts/999", .notFound("No post 999.")),
            ("/users/999", .notFound("No user 999.")),
            ("/users/1/settings", .forbidden("Only your own settings can be opened.")),
            ("/signup", .forbidden("You are signed in: sign out to create another account.")),
        ]
        let rows = try ["users", "posts", "sessions"].map { try ada.count($0) }
        for (link, rejection) in expected {
            let (shown, version) = (ada.shown, ada.version)
            await #expect(throws: rejection, "\(link)") { try await ada.open(link) }
            #expect(ada.shown == shown)
            #expect(ada.version == version)
        }
        for malformed in ["posts/1", "/posts/1?x=1", "/posts/1#top", "/posts/ 1", "/" + String(repeating: "a", count: 600)] {
            let version = ada.version
            await #expect(throws: LinkRejection.self, "\(malformed)") { try await ada.open(malformed) }
            #expect(ada.version == version)
        }
        await #expect(throws: EventRejection.self) { try await ada.send("open", ["link": 1]) }
        #expect(try ["users", "posts", "sessions"].map { try ada.count($0) } == rows)
        // At creation: no session. (A signed-out session learns whether a post exists only after
        // sign-in: see aLinkToAPostDeletedBeforeSignInIsDropped.)
        await #expect(throws: LinkRejection.unknown(link: "/nowhere")) {
            _ = try await Self.session(at: "/nowhere", sharing: world)
        }
        await #expect(throws: LinkRejection.invalid([FieldError(field: "id", message: "must be a whole number from 1 to \(Int.max)")])) {
            _ = try await Self.session(at: "/posts/abc", sharing: world)
        }
    }

    @Test func aLinkToAPostDeletedBeforeSignInIsDropped() async throws {
        let world = try await Self.world()
        var linked = try await Self.session(at: "/posts/2", sharing: world)
        try linked.database.run("DELETE FROM posts WHERE id = 2", [])
        try await Self.signIn(&linked)
        #expect(linked.top.name == "timeline")
        #expect(linked.tree.user?.displayName == "Bob")
    }

    @Test func theStateCarriesTheTopScreensLink() async throws {
        var ada = try await Self.world()
        #expect(ada.state["link"] == nil)
        try await ada.send(TimelineScreen.self, .openUser(UserReference(userId: 2)))
        #expect(ada.state["link"] == "/users/2")
        try await ada.send(UserScreen.self, .openPost(PostReference(postId: 2)))
        #expect(ada.state["link"] == "/posts/2")
    }

    @Test func theCatalogListsTheLinks() {
        let catalog = SampleApp.navigation.catalog()
        #expect(
            catalog["links"]?.arrayValue?.map { $0["pattern"] }
                == ["/posts/{id}", "/users/{id}", "/settings", "/users/{id}/settings", "/signup"])
        #expect(catalog["links"]?[0] == ["pattern": "/posts/{id}", "summary": "A post.", "parameters": ["id"], "screen": "post"])
        #expect(
            catalog["systemEvents"]?.arrayValue?.last == [
                "name": "open", "accessibilityLabel": "Open",
                "fields": [["name": "link", "type": "string", "optional": false, "accessibilityLabel": "Link"]],
            ])
    }
}

extension JSONValue {
    /// Element `index` of an array; nil for other values or past the end.
    fileprivate subscript(_ index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}
