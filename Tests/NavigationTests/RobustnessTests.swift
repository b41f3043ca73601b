import Foundation
import Navigation
import Testing

/// A flow with a bug, text rules, size limits and the stored-user check, on a small app.
@Suite struct RobustnessTests {
    static let page = ScreenDefinition(
        "page", props: [.integer("depth")],
        events: [
            EventDeclaration("push"), EventDeclaration("breakEncoding"), EventDeclaration("breakEncodingOnRemoval"),
            EventDeclaration("submit", [.identifier("name"), .string("note", optional: true), .password("secret")]),
        ])

    /// Pushes pages; `breakEncoding` leaves it in a state it cannot encode (a bug in a flow).
    struct Pages: Coordinator {
        static let typeName = "Pages"
        var depth = 0
        var broken = false
        /// `screenRemoved` breaks the encoding (a bug in a flow's bookkeeping on `back`).
        var breaksOnRemoval = false

        init() {}

        enum CodingKeys: String, CodingKey { case depth }

        init(from decoder: any Decoder) throws {
            depth = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .depth)
        }

        func encode(to encoder: any Encoder) throws {
            if broken { throw EncodingError.invalidValue(depth, .init(codingPath: [], debugDescription: "a bug")) }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(depth, forKey: .depth)
        }

        mutating func start(_ context: inout Context) throws {
            try context.push(RobustnessTests.page, ["depth": .int(depth)])
        }

        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            switch event.name {
            case "push":
                depth += 1
                try context.push(RobustnessTests.page, ["depth": .int(depth)])
            case "breakEncoding":
                broken = true
            case "breakEncodingOnRemoval":
                breaksOnRemoval = true
            default:
                break
            }
            return .handled
        }

        mutating func screenRemoved(_ screen: Screen, _ context: inout Context) {
            depth -= 1
            if breaksOnRemoval { broken = true }
        }
    }

    static func app(limits: NavigationLimits = NavigationLimits(), userExists: NavigationApp.UserCheck? = nil) -> NavigationApp {
        NavigationApp(
            screens: [page], coordinators: [Pages.self], limits: limits, userExists: userExists, root: { _ in Pages() })
    }

    @Test func aCoordinatorThatFailsToEncodeFailsItsEventNotTheProcess() throws {
        var driver = try Driver(app: Self.app())
        try driver.send("push")
        let before = driver.tree
        #expect(throws: NavigationError.self) { try driver.send("breakEncoding") }
        #expect(driver.tree == before)
        try driver.send("push")  // the session goes on
        #expect(try driver.app.snapshot(driver.tree).count > 0)
    }

    /// `back` runs the owner's `screenRemoved`; a coordinator that then fails to encode fails the
    /// event, instead of the snapshot keeping its encoding from before (a stale state).
    @Test func aCoordinatorThatFailsToEncodeAfterBackFailsTheBack() throws {
        var driver = try Driver(app: Self.app())
        try driver.send("push")
        try driver.send("breakEncodingOnRemoval")
        let before = driver.tree
        #expect(throws: NavigationError.self) { try driver.send("back") }
        #expect(driver.tree == before)
        #expect(try driver.app.snapshot(driver.tree) == driver.app.snapshot(before))
    }

    /// Blank-looking characters (the blank Braille pattern, Hangul fillers, …) count as invisible.
    @Test func identifiersRefuseControlInvisibleAndBidiCharacters() throws {
        var driver = try Driver(app: Self.app())
        let message = "must not contain control, invisible or bidirectional-control characters"
        let blank = ["ada\u{2800}", "\u{3164}", "ada\u{115F}", "ada\u{1160}", "ada\u{FFA0}", "\u{1D159}", "ada\u{13441}"]
        for name in ["ada\u{0}", "ada\u{200B}", "\u{202E}ada", "ada\u{2066}", "ad\u{AD}a", "ada\n", "ada\u{FEFF}"] + blank {
            #expect(throws: EventRejection.invalidPayload([FieldError(field: "name", message: message)])) {
                try driver.send("submit", ["name": .string(name), "secret": "x"])
            }
        }
        try driver.send("submit", ["name": "Ada Lovelace", "note": "line one\nline two\ttab", "secret": "\u{0}any\u{202E}thing"])
        #expect(throws: EventRejection.invalidPayload([FieldError(field: "note", message: "must not contain control characters")])) {
            try driver.send("submit", ["name": "Ada", "note": "\u{0}hidden", "secret": "x"])
        }
    }

    @Test func aSessionCannotGrowPastItsScreenLimit() throws {
        var driver = try Driver(app: Self.app(limits: NavigationLimits(maxScreens: 3)))
        try driver.send("push")
        try driver.send("push")
        let full = driver.tree
        #expect(throws: EventRejection.sessionLimit("3 screens")) { try driver.send("push") }
        #expect(driver.tree == full)
        try driver.send("back")
        try driver.send("push")
    }

    @Test func aSessionWhoseUserIsGoneStartsOverSignedOutWithFreshIds() throws {
        let user = SessionUser(id: 7, displayName: "Gone")
        var driver = try Driver(app: Self.app(userExists: { checked, _ in checked.id != 7 }), user: user)
        let seen = Set(driver.tree.allScreens.map(\.id))
        let outcome = try driver.send("push")
        #expect(outcome.credentialsRotated)
        #expect(driver.tree.user == nil)
        #expect(driver.tree.allScreens.count == 1)
        // The event was not applied, and no screen id is reused.
        #expect(driver.tree.allScreens.allSatisfy { !seen.contains($0.id) })
    }

    /// A user table's names go into SQL as they are: anything but plain identifiers is a problem
    /// at start-up, and so is declaring both ways of checking the user.
    @Test func aUserTableNamesPlainIdentifiersAndIsTheOnlyUserCheck() throws {
        func problems(_ table: UserTable, closure: NavigationApp.UserCheck? = nil) -> [String] {
            NavigationApp(
                screens: [Self.page], coordinators: [Pages.self], userExists: closure, userTable: table,
                root: { _ in Pages() }
            ).problems
        }
        #expect(problems(UserTable("users")).isEmpty)
        #expect(problems(UserTable("app.users", idColumn: "user_id")).isEmpty)
        for name in ["users; DROP TABLE sessions", "", "1users", "a.b.c", "a.", "\"users\""] {
            #expect(problems(UserTable(name)) == [
                "the user table's name \"\(name)\" is not a plain SQL name (letters, digits and _, not starting "
                    + "with a digit; a schema before a dot)"
            ])
        }
        #expect(problems(UserTable("users", idColumn: "id = id OR 1")).count == 1)
        #expect(
            problems(UserTable("users"), closure: { _, _ in true }) == [
                "the app declares both userExists and userTable; the signed-in user is checked one way"
            ])
    }

    /// Slow work is asked for (the event rolls back), done once outside, then served from its result.
    @Test func slowWorkIsAskedForThenServedFromItsResult() async throws {
        var preparations = Preparations()
        let needed = try #require(throws: PreparationNeeded.self) { try preparations.result("answer") { 42 } }
        #expect(needed.key == "answer")
        try await preparations.perform(needed)
        #expect(try preparations.result("answer") { 0 } == 42)
    }
}
