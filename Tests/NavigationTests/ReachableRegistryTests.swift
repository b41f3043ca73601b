import Navigation
import Testing

/// `NavigationApp(reachableFrom:)`: the app's screens and coordinators are those its root
/// reaches through each coordinator's declared `children` and `screens`, each once.
@Suite struct ReachableRegistryTests {
    enum HomeScreen: ScreenType {}
    enum DetailScreen: ScreenType {}
    enum SheetScreen: ScreenType {}
    enum StrayScreen: ScreenType {}

    struct RootCoordinator: Coordinator {
        static let children: [any Coordinator.Type] = [ListCoordinator.self, SheetCoordinator.self]
        static let screens: [any ScreenType.Type] = [HomeScreen.self]
        mutating func start(_ context: inout Context) throws {
            context.setRoot(HomeScreen.self)
            try context.startChild(ChildKey("list"), ListCoordinator())
        }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
    }

    /// Declares the sheet again (a cycle and a duplicate): each type is listed once.
    struct ListCoordinator: Coordinator {
        static let children: [any Coordinator.Type] = [SheetCoordinator.self, RootCoordinator.self]
        static let screens: [any ScreenType.Type] = [DetailScreen.self, HomeScreen.self]
        mutating func start(_ context: inout Context) throws { try context.push(DetailScreen.self) }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
    }

    struct SheetCoordinator: Coordinator {
        static let screens: [any ScreenType.Type] = [SheetScreen.self]
        mutating func start(_ context: inout Context) throws { try context.push(StrayScreen.self) }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
    }

    @Test func theListsAreWhatTheRootReaches() throws {
        let app = NavigationApp(reachableFrom: { _ in RootCoordinator() })
        #expect(app.problems.isEmpty)
        #expect(Set(app.registry.types.keys) == ["Root", "List", "Sheet"])
        let names = (app.catalog()["screens"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        #expect(names == ["detail", "home", "sheet"])
        let tree = try app.start(platform: .phone, environment: Environment())
        #expect(tree.allScreens.map(\.name) == ["home", "detail"])
    }

    /// A screen no coordinator declares is the mistake it was when lists were kept by hand: the
    /// flow that shows it fails at once, naming it; listing it beside the root mends it.
    @Test func aScreenNoCoordinatorDeclaresFailsItsFlow() throws {
        struct ShowsStray: Coordinator {
            static let children: [any Coordinator.Type] = [SheetCoordinator.self]
            mutating func start(_ context: inout Context) throws {
                try context.startChild(ChildKey("sheet"), SheetCoordinator(), placement: .modal)
            }
            mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
        }
        let app = NavigationApp(reachableFrom: { _ in ShowsStray() })
        #expect(throws: (any Error).self) { try app.start(platform: .phone, environment: Environment()) }
        do {
            _ = try app.start(platform: .phone, environment: Environment())
        } catch {
            #expect("\(error)".contains("stray"), "\(error)")
        }
        let mended = NavigationApp(reachableFrom: { _ in ShowsStray() }, screens: [StrayScreen.self])
        #expect(throws: Never.self) { try mended.start(platform: .phone, environment: Environment()) }
    }
}
