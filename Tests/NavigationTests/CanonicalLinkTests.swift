import Navigation
import Synchronization
import Testing

/// A screen's canonical link is found once: from its typed props when a flow shows it, else from
/// its serialized props the first time it is on top; each State after that reuses it. It follows
/// the props when they change, and a screen restored from a snapshot finds it again.
@Suite(.serialized) struct CanonicalLinkTests {
    /// How many times `Profile.Props` were decoded (every search from serialized props decodes them).
    static let decodes = Atomic<Int>(0)

    enum Home: ScreenType {
        static let name = "home"
    }

    enum Profile: ScreenType {
        static let name = "profile"
        struct Props: Codable, Sendable, Hashable {
            var id: Int
            var posts: [String]

            init(id: Int, posts: [String]) {
                self.id = id
                self.posts = posts
            }

            init(from decoder: any Decoder) throws {
                CanonicalLinkTests.decodes.add(1, ordering: .relaxed)
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decode(Int.self, forKey: .id)
                posts = try container.decode([String].self, forKey: .posts)
            }
        }
        enum Output: ScreenOutput {
            case next
            static let events: [OutputEvent<Output>] = [.event("next", .next)]
        }
    }

    enum ProfileRoute: Route {
        case profile(Int)
        static let patterns: [LinkPattern<ProfileRoute>] = [
            LinkPattern("/profiles/{id}", shows: Profile.self, canonical: { .profile($0.id) }) {
                .profile(try $0.int("id"))
            }
        ]
        var link: String {
            switch self {
            case .profile(let id): "/profiles/\(id)"
            }
        }
        var needsSignIn: Bool { false }
    }

    /// Opens profiles; `next` on a profile shows the next one in the same screen (its props change).
    struct Root: Coordinator {
        static let typeName = "CanonicalLinkRoot"
        mutating func start(_ context: inout Context) throws { context.setRoot(Home.self) }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            guard try event.output(Profile.self) == .next else { return .unhandled }
            try context.update(event.screen.id, as: Profile.self) { $0.id += 1 }
            return .handled
        }
        mutating func open(_ link: Link, _ context: inout Context) throws -> Handling {
            guard case .profile(let id)? = link.route(as: ProfileRoute.self) else { return .unhandled }
            try context.popToRoot()
            try context.push(Profile.self, .init(id: id, posts: (1...50).map { "post \($0)" }))
            return .handled
        }
    }

    static let app = NavigationApp(
        screens: [Home.self, Profile.self], coordinators: [Root.self], links: Links(ProfileRoute.self),
        root: { _ in Root() })

    func send(_ name: String, _ payload: JSONValue = .null, to tree: inout NavigationTree) throws {
        try Self.app.apply(
            IncomingEvent(screen: tree.top!.id, name: name, payload: payload), to: &tree, environment: Environment())
    }

    func decodes(during work: () throws -> Void) rethrows -> Int {
        let before = Self.decodes.load(ordering: .relaxed)
        try work()
        return Self.decodes.load(ordering: .relaxed) - before
    }

    @Test func aScreenShownWithTypedPropsRendersItsLinkWithoutDecodingThem() throws {
        var tree = try Self.app.start(platform: .phone, environment: Environment())
        try send("open", ["link": "/profiles/5"], to: &tree)
        var links: [JSONValue?] = []
        let decoded = decodes {
            for _ in 0..<3 { links.append(Self.app.render(tree)["link"]) }
        }
        #expect(links == ["/profiles/5", "/profiles/5", "/profiles/5"])
        #expect(decoded == 0, "each State decoded the props again to find the link")
    }

    @Test func theLinkFollowsThePropsWhenTheyChange() throws {
        var tree = try Self.app.start(platform: .phone, environment: Environment())
        try send("open", ["link": "/profiles/5"], to: &tree)
        try send("next", to: &tree)
        #expect(Self.app.render(tree)["link"] == "/profiles/6")
        try send("next", to: &tree)
        #expect(Self.app.render(tree)["link"] == "/profiles/7")
        // Found once after the change (as the event settled), then reused.
        #expect(decodes { _ = Self.app.render(tree) } == 0)
    }

    @Test func aScreenRestoredFromASnapshotFindsItsLinkAgain() throws {
        var tree = try Self.app.start(platform: .phone, environment: Environment())
        try send("open", ["link": "/profiles/5"], to: &tree)
        var restored = try Self.app.decodeSnapshot(Self.app.snapshot(tree))
        #expect(restored == tree)
        #expect(Self.app.render(restored)["link"] == "/profiles/5")
        try send("next", to: &restored)
        #expect(Self.app.render(restored)["link"] == "/profiles/6")
        #expect(decodes { _ = Self.app.render(restored) } == 0)
    }
}
