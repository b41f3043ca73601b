import Navigation
import Testing

/// The previous release's API still compiles and still works, with a deprecation warning that
/// says what to write instead (CHANGELOG, "Deprecated"). The types are deprecated themselves, so
/// that this file compiles without warnings of its own.
@Suite struct DeprecatedAPITests {
    enum Toggle: ScreenType {
        static let summary = "Flips a switch."
        struct Props: Codable, Sendable, Equatable { var on = false }
        enum Output: ScreenOutput {
            case flip, elsewhere
            static let events: [OutputEvent<Output>] = [.event("flip", .flip), .event("elsewhere", .elsewhere)]
        }
    }

    @available(*, deprecated)
    struct Switch: InputMapping {
        var screen: ScreenID?
        static func mapIO(_ event: ScreenEvent) throws -> Bool? {
            try event.output(Toggle.self) == .flip ? true : nil
        }
        mutating func start(_ context: inout Context) throws { screen = try context.push(Toggle.self, .init()) }
        mutating func handle(_ flip: Bool, _ context: inout Context) throws {
            try context.update(screen!, as: Toggle.self) { $0.on.toggle() }
        }
    }

    @available(*, deprecated)
    @Test func anInputMappingCoordinatorStillHandlesItsEvents() throws {
        var driver = try Driver(
            app: NavigationApp(screens: [Toggle.self], coordinators: [Switch.self], root: { _ in Switch() }))
        try driver.send("flip")
        #expect(driver.tree.top?.props["on"] == true)
        // What `mapIO` gives nil for goes up the chain: at the root, a refusal.
        #expect(throws: (any Error).self) { try driver.send("elsewhere") }
        #expect(driver.tree.top?.props["on"] == true)
    }
}
