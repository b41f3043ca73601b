import Navigation
import Testing

/// Flow versioning (issue 23): a coordinator whose stored form changed declares a migration from
/// its previous schema, so a snapshot of the old form is upgraded instead of reset.
@Suite struct FlowVersioningTests {
    /// The test app's wizard after a deploy that added a stored field, with a migration.
    struct WizardV2: Coordinator {
        static let typeName = "Wizard"
        static let schemaVersion = 2
        var draftName = ""
        var nameScreen: ScreenID?
        var nickname: String

        mutating func start(_ context: inout Context) throws {}
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }

        static func migrate(_ state: JSONValue, fromSchema version: Int) throws -> JSONValue? {
            guard version == 1, case .object(var members) = state else { return nil }
            members["nickname"] = .string("the " + (members["draftName"]?.stringValue ?? ""))
            return .object(members)
        }
    }

    /// The same deploy whose migration fails.
    struct WizardV2Failing: Coordinator {
        static let typeName = "Wizard"
        static let schemaVersion = 2
        var nickname: String
        mutating func start(_ context: inout Context) throws {}
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
        struct Refused: Error {}
        static func migrate(_ state: JSONValue, fromSchema version: Int) throws -> JSONValue? { throw Refused() }
    }

    /// A deploy two schema versions on, whose migrations only cover the step from 2.
    struct WizardV3: Coordinator {
        static let typeName = "Wizard"
        static let schemaVersion = 3
        var nickname: String
        mutating func start(_ context: inout Context) throws {}
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
        static func migrate(_ state: JSONValue, fromSchema version: Int) throws -> JSONValue? {
            // Only the step from 2 (the form of 2 and 3 is the same); `nil`, not `.null`: there is no way from 1.
            guard version == 2 else { return nil }
            return state
        }
    }

    static func deployed(_ wizard: any Coordinator.Type) -> NavigationApp {
        NavigationApp(
            screens: TestScreens.all, coordinators: [TestRoot.self, wizard, TabletWizard.self, SheetFlow.self, TabFlow.self],
            root: { _ in TestRoot() })
    }

    @Test func aMigrationUpgradesAStoredWizardInsteadOfResettingIt() throws {
        var driver = try Driver()
        try driver.send("startWizard")
        try driver.send("next", ["name": "Ada"])
        let bytes = try driver.app.snapshot(driver.tree)

        let app = Self.deployed(WizardV2.self)
        let (tree, fallback) = try app.restore(bytes, environment: Environment())
        #expect(fallback == nil)
        // The same screens, as they were; the wizard now stored with schema 2 and its new field.
        #expect(app.render(tree) == driver.app.render(driver.tree))
        let stored = String(decoding: try app.snapshot(tree), as: UTF8.self)
        #expect(stored.contains(#""nickname":"the Ada""#))
        #expect(stored.contains(#""type":"Wizard","version":2"#))
        let wizard = app.inspect(tree)["root"]?["children"]?.arrayValue?.first
        #expect(wizard?["schemaVersion"] == 2)
    }

    @Test func withoutAWayUpTheSnapshotFallsBack() throws {
        var driver = try Driver()
        try driver.send("startWizard")
        let bytes = try driver.app.snapshot(driver.tree)

        #expect(throws: SnapshotError.schemaChanged("Wizard", stored: 1, current: 3)) {
            try Self.deployed(WizardV3.self).decodeSnapshot(bytes)
        }
        let failing = Self.deployed(WizardV2Failing.self)
        #expect(throws: SnapshotError.self) { try failing.decodeSnapshot(bytes) }
        let (_, fallback) = try failing.restore(bytes, environment: Environment())
        #expect(fallback?.reason.description.contains("migration from schema 1 failed") == true)
    }
}

/// What a journal keeps of a payload: never a password or a field marked secret.
@Suite struct JournaledPayloadTests {
    enum SignInScreen: ScreenType {
        static let name = "signIn"
        struct Form: Codable, Sendable, Hashable {
            var email: String
            @Password var password: String
            @Secret var code: String
        }
        enum Output: ScreenOutput {
            case submit(Form)
            static let events: [OutputEvent<Output>] = [.event("submit", Output.submit)]
        }
    }

    static let app = NavigationApp(screens: [SignInScreen.self], coordinators: [], root: { _ in TestRoot() })

    @Test func passwordsSecretsAndUndeclaredMembersAreLeftOut() {
        let kept = Self.app.journaled(
            payload: ["email": "a@example.com", "password": "hunter2 hunter2 hunter2", "code": "123456", "extra": "x"],
            event: "submit", screenName: "signIn")
        #expect(kept.payload == ["email": "a@example.com"])
        #expect(kept.redacted == ["password", "code", "extra"])
        #expect(Self.app.journaled(payload: ["tab": "home"], event: "selectTab", screenName: "signIn").payload == ["tab": "home"])
        #expect(Self.app.journaled(payload: .null, event: "back", screenName: "signIn") == JournaledPayload(payload: .null, redacted: []))
        #expect(Self.app.journaled(payload: ["a": 1], event: "nope", screenName: "signIn").redacted == ["a"])
    }
}
