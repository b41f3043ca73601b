import Navigation
import Testing

/// The link runtime on a small app: patterns match and parse, the root's `open` navigates with
/// `Context` calls, the State carries the top screen's link, and a refused link changes nothing.
@Suite struct LinkRuntimeTests {
    enum Home: ScreenType {
        static let name = "home"
    }

    enum Item: ScreenType {
        static let name = "item"
        struct Props: Codable, Sendable, Hashable { var id: Int }
    }

    enum Opener: ScreenType {
        static let name = "opener"
        enum Output: ScreenOutput {
            case open
            static let events: [OutputEvent<Output>] = [.event("open", .open)]
        }
    }

    enum TestRoute: Route {
        case item(Int), home, elsewhere
        static let patterns: [LinkPattern<TestRoute>] = [
            LinkPattern("/items/{id}", shows: Item.self, canonical: { .item($0.id) }) { .item(try $0.int("id", in: 1...99)) },
            LinkPattern("/home") { _ in .home },
            LinkPattern("/elsewhere") { _ in .elsewhere },
        ]
        var link: String {
            switch self {
            case .item(let id): "/items/\(id)"
            case .home: "/home"
            case .elsewhere: "/elsewhere"
            }
        }
        var needsSignIn: Bool { false }
    }

    struct Root: Coordinator {
        static let typeName = "LinkRoot"
        mutating func start(_ context: inout Context) throws { context.setRoot(Home.self) }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
        mutating func open(_ link: Link, _ context: inout Context) throws -> Handling {
            switch link.route(as: TestRoute.self) {
            case .item(let id)?:
                try context.popToRoot()
                try context.push(Item.self, .init(id: id))
                return .handled
            case .home?:
                try context.popToRoot()
                return .handled
            default:
                return .unhandled
            }
        }
    }

    static let app = NavigationApp(
        screens: [Home.self, Item.self], coordinators: [Root.self], links: Links(TestRoute.self), root: { _ in Root() })

    func open(_ tree: inout NavigationTree, _ link: String) throws {
        try Self.app.apply(
            IncomingEvent(screen: tree.top!.id, name: "open", payload: ["link": .string(link)]), to: &tree,
            environment: Environment())
    }

    @Test func patternsMatchAndParametersParse() throws {
        let links = Self.app.links
        #expect(try links.link(for: "/items/7").route(as: TestRoute.self) == .item(7))
        #expect(try links.link(for: "/home").route(as: TestRoute.self) == .home)
        #expect(throws: LinkRejection.unknown(link: "/items")) { try links.link(for: "/items") }
        #expect(throws: LinkRejection.unknown(link: "/items/7/x")) { try links.link(for: "/items/7/x") }
        let outOfRange = LinkRejection.invalid([FieldError(field: "id", message: "must be a whole number from 1 to 99")])
        for bad in ["/items/100", "/items/-1", "/items/+1", "/items/07", "/items/1e2", "/items/99999999999999999999"] {
            #expect(throws: outOfRange, "\(bad)") { try links.link(for: bad) }
        }
        for malformed in ["items/7", "", "/items/7?a=1", "/items/7#x", "/it ems", "/ä"] {
            #expect(throws: LinkRejection.self, "\(malformed)") { try links.link(for: malformed) }
        }
    }

    @Test func openNavigatesAndTheStateCarriesTheLink() throws {
        var tree = try Self.app.start(platform: .phone, link: "/items/3", environment: Environment())
        #expect(tree.allScreens.map(\.name) == ["home", "item"])
        #expect(Self.app.render(tree)["link"] == "/items/3")
        try open(&tree, "/items/4")
        #expect(tree.allScreens.map(\.id) == ["s1", "s3"])
        #expect(Self.app.render(tree)["link"] == "/items/4")
        try open(&tree, "/home")
        #expect(tree.allScreens.map(\.name) == ["home"])
        #expect(Self.app.render(tree)["link"] == nil)
        // `open` is accepted everywhere but not listed among the top screen's events.
        #expect(!Self.app.acceptedEvents(in: tree).contains("open"))
    }

    @Test func aRefusedLinkLeavesTheTreeAsItWas() throws {
        var tree = try Self.app.start(platform: .phone, link: "/items/3", environment: Environment())
        let before = tree
        #expect(throws: LinkRejection.unhandled(link: "/elsewhere")) { try open(&tree, "/elsewhere") }
        #expect(throws: LinkRejection.unknown(link: "/nope")) { try open(&tree, "/nope") }
        #expect(throws: EventRejection.self) {
            try Self.app.apply(
                IncomingEvent(screen: tree.top!.id, name: "open", payload: ["link": 3]), to: &tree, environment: Environment())
        }
        #expect(tree == before)
        #expect(throws: LinkRejection.unhandled(link: "/elsewhere")) {
            try Self.app.start(platform: .phone, link: "/elsewhere", environment: Environment())
        }
    }

    @Test func anAppWithoutLinksRefusesOpenAsBefore() throws {
        let plain = NavigationApp(screens: [Home.self], coordinators: [Root.self], root: { _ in Root() })
        var tree = try plain.start(platform: .phone, environment: Environment())
        #expect(throws: EventRejection.undeclaredEvent(event: "open", accepted: [])) {
            try plain.apply(IncomingEvent(screen: tree.top!.id, name: "open", payload: ["link": "/home"]), to: &tree, environment: Environment())
        }
        #expect(plain.catalog()["links"] == nil)
        #expect(Self.app.catalog()["links"]?.arrayValue?.count == 3)
    }

    /// A root whose first screen declares its own `open` event, and counts it.
    struct OpenerRoot: Coordinator {
        static let typeName = "OpenerRoot"
        var opened = 0
        mutating func start(_ context: inout Context) throws { context.setRoot(Opener.self) }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            guard try event.output(Opener.self) == .open else { return .unhandled }
            opened += 1
            try context.push(Home.self)
            return .handled
        }
    }

    /// A screen's own `open` event is refused in an app without links too: the day the app
    /// declares links, every screen has the system event `open`, and the app would stop starting.
    @Test func anAppWithoutLinksRefusesAScreensOwnOpenEventToo() throws {
        let plain = NavigationApp(
            screens: [Home.self, Opener.self], coordinators: [OpenerRoot.self], root: { _ in OpenerRoot() })
        #expect(
            plain.problems == [
                "screen \"opener\" declares \"open\", a system event every screen has already (or will, once the app declares links)"
            ])
    }

    enum Clashing: Route {
        case one
        static let patterns: [LinkPattern<Clashing>] = [
            LinkPattern("/a/{x}") { _ in .one }, LinkPattern("/a/{y}") { _ in .one }, LinkPattern("b") { _ in .one },
            LinkPattern("/items/{id}", shows: Item.self, canonical: { _ in .one }) { _ in .one },
        ]
        var link: String { "/a/1" }
        var needsSignIn: Bool { false }
    }

    @Test func mistakesInTheLinksAreProblems() {
        let app = NavigationApp(
            screens: [Home.self, Opener.self], coordinators: [Root.self], links: Links(Clashing.self), root: { _ in Root() })
        #expect(
            app.problems == [
                "screen \"opener\" declares \"open\", a system event every screen has already (or will, once the app declares links)",
                "link pattern \"/a/{y}\" matches the same links as an earlier one",
                "link pattern \"b\" must be a path starting with /",
                "link pattern \"/items/{id}\" shows screen \"item\", which the app does not list",
            ])
    }
}
