import CoordinatorApp
import CoordinatorTesting
import Navigation
import SQLiteStore
import Store
import Testing

/// `context.dependency(_:)`: an `EventModel` needs no registration (each event builds one on the
/// connection it commits on, so its writes commit with the session), a value the environment
/// holds comes first, and a dependency the app never set is refused by its type's name.
@Suite struct DependencyTests {
    /// Counts taps in a table of its own, on the connection it is given.
    struct Taps: EventModel {
        let connection: any SQLConnection
        func record() throws -> Int {
            try connection.run("INSERT INTO taps (at) VALUES (1)", [])
            return try connection.queryFirst("SELECT count(*) FROM taps", []) { $0.int(0) } ?? 0
        }
    }

    /// A dependency built at start by the app, never by an event.
    struct Greeting { let text: String }

    enum Counter: ScreenType {
        static let summary = "Counts taps."
        struct Props: Codable, Sendable, Equatable {
            var taps = 0
            var greeting: String?
        }
        enum Output: ScreenOutput {
            case tap, greet
            static let events: [OutputEvent<Output>] = [.event("tap", .tap), .event("greet", .greet)]
        }
    }

    struct TapCoordinator: Coordinator {
        static let screens: [any ScreenType.Type] = [Counter.self]
        var screen: ScreenID?

        mutating func start(_ context: inout Context) throws { screen = try context.push(Counter.self, .init()) }

        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            guard let screen, let output = try event.output(Counter.self) else { return .unhandled }
            switch output {
            case .tap:
                let taps = try context.dependency(Taps.self).record()
                try context.update(screen, as: Counter.self) { $0.taps = taps }
            case .greet:
                let text = try context.dependency(Greeting.self).text
                try context.update(screen, as: Counter.self) { $0.greeting = text }
            }
            return .handled
        }
    }

    static func served(environment: @escaping @Sendable (EventScope) -> Environment = { _ in Environment() }) -> ServedApp {
        ServedApp(
            name: "taps", navigation: NavigationApp(reachableFrom: { _ in TapCoordinator() }),
            migrations: { _ in [Migration(scope: "taps", version: 1, name: "taps", sql: "CREATE TABLE taps (at INTEGER)")] },
            eventEnvironment: environment)
    }

    @Test func anEventModelIsBuiltOnTheEventsConnectionWithNothingRegistered() async throws {
        var app = try await AppTester(Self.served())
        try await app.send(Counter.self, .tap)
        try await app.send(Counter.self, .tap)
        #expect(try app.props(of: Counter.self).taps == 2)
        #expect(try app.rows(in: "taps") == 2, "the model's writes committed with the events")
    }

    @Test func aModelTheEnvironmentHoldsComesFirst() async throws {
        // The app's environment hands every event a model on another database: the taps land there.
        let elsewhere = try SQLiteConnection(path: ":memory:")
        try elsewhere.run("CREATE TABLE taps (at INTEGER)", [])
        try elsewhere.run("INSERT INTO taps (at) VALUES (0), (0), (0)", [])
        let shared = SharedConnection(connection: elsewhere)
        var app = try await AppTester(
            Self.served(environment: { _ in
                var environment = Environment()
                environment.set(Taps(connection: shared.connection))
                return environment
            }))
        try await app.send(Counter.self, .tap)
        #expect(try app.props(of: Counter.self).taps == 4)
        #expect(try app.rows(in: "taps") == 0)
    }

    @Test func aDependencyTheAppNeverSetIsRefusedByName() async throws {
        var app = try await AppTester(Self.served())
        await #expect { try await app.send(Counter.self, .greet) } throws: { "\($0)".contains("Greeting") }
        var greeted = try await AppTester(
            Self.served(environment: { _ in
                var environment = Environment()
                environment.set(Greeting(text: "hello"))
                return environment
            }))
        try await greeted.send(Counter.self, .greet)
        #expect(try greeted.props(of: Counter.self).greeting == "hello")
    }

    /// `@unchecked Sendable`: the test's one connection, used by one event at a time.
    struct SharedConnection: @unchecked Sendable { let connection: SQLiteConnection }
}
