import Navigation
import Testing

@Suite struct EventRejectionTests {
    @Test func unhandledEventTravelsToTheRootAndComesBackAsAnError() throws {
        var driver = try Driver()
        try driver.send("startWizard")
        try driver.send("next", ["name": "Ada"])
        let before = driver.tree
        // Declared by home only; send it from home after popping back.
        try driver.send("back")
        try driver.send("back")
        let home = driver.tree
        #expect(throws: EventRejection.unhandled(event: "nobodyHandles")) { try driver.send("nobodyHandles") }
        #expect(driver.tree == home)
        #expect(before != home)
    }

    @Test func undeclaredEventListsWhatIsAccepted() throws {
        var driver = try Driver()
        #expect(throws: EventRejection.undeclaredEvent(event: "back", accepted: homeEvents)) { try driver.send("back") }
        #expect(throws: EventRejection.undeclaredEvent(event: "fly", accepted: homeEvents)) { try driver.send("fly") }
    }

    @Test func payloadErrorsArePerField() throws {
        var driver = try Driver()
        let before = driver.tree
        #expect(throws: EventRejection.invalidPayload([FieldError(field: "item", message: "is required")])) {
            try driver.send("openDetail")
        }
        #expect(throws: EventRejection.invalidPayload([FieldError(field: "item", message: "must be an integer")])) {
            try driver.send("openDetail", ["item": "three"])
        }
        #expect(
            throws: EventRejection.invalidPayload([
                FieldError(field: "item", message: "must be an integer"),
                FieldError(field: "extra", message: "is not a field of openDetail"),
            ])
        ) { try driver.send("openDetail", ["item": 1.5, "extra": true]) }
        #expect(throws: EventRejection.invalidPayload([FieldError(field: "payload", message: "must be a JSON object")])) {
            try driver.send("openDetail", [1])
        }
        #expect(driver.tree == before)
    }

    @Test func staleScreenIsRejected() throws {
        var driver = try Driver()
        try driver.send("openDetail", ["item": 1])
        #expect(throws: EventRejection.notTopScreen(screen: "s1", top: "s2")) {
            try driver.app.apply(
                IncomingEvent(screen: "s1", name: "openDetail", payload: ["item": 2]), to: &driver.tree, environment: Environment())
        }
    }

    @Test func coordinatorErrorsLeaveTheTreeUnchanged() throws {
        struct Broken: Error {}
        struct Failing: Coordinator {
            static let typeName = "Failing"
            mutating func start(_ context: inout Context) throws { try context.push(TestScreens.home) }
            mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
                try context.push(TestScreens.detail, ["item": 1])
                context.signIn(SessionUser(id: 1, displayName: "x"))
                throw Broken()
            }
        }
        let app = NavigationApp(screens: TestScreens.all, coordinators: [Failing.self], root: { _ in Failing() })
        var tree = try app.start(platform: .web, environment: Environment())
        let before = tree
        #expect(throws: Broken.self) {
            try app.apply(IncomingEvent(screen: "s1", name: "compose"), to: &tree, environment: Environment())
        }
        #expect(tree == before)
    }
}
