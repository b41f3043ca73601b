import Navigation
import SQLiteStore
import Store
import Testing

@testable import Greeter

@Suite struct GreeterTests {
    let environment: Environment

    init() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try Migrator(migrations: Greeter.migrations(for: .sqlite)).migrate(connection)
        environment = Greeter.environment(connection)
    }

    @Test func greetingTrimsCountsAndPushes() throws {
        var tree = try Greeter.navigation.start(platform: .web, environment: environment)
        for _ in 0..<2 {
            if tree.top?.name == "greeting" {
                try Greeter.navigation.apply(IncomingEvent(screen: tree.top!.id, name: "back"), to: &tree, environment: environment)
            }
            try Greeter.navigation.apply(
                IncomingEvent(HelloScreen.self, .greet(name: " Ada "), on: tree.top!.id), to: &tree, environment: environment)
        }
        #expect(tree.top?.name == "greeting")
        #expect(tree.top?.props == ["text": "Hello, Ada!", "times": 2])
    }

    @Test func aNameIsLimitedInBytesAndAccents() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try Migrator(migrations: Greeter.migrations(for: .sqlite)).migrate(connection)
        let environment = Greeter.environment(connection)
        var tree = try Greeter.navigation.start(platform: .web, environment: environment)
        for name in ["Z" + String(repeating: "\u{301}", count: 32_000), String(repeating: "n", count: 51)] {
            try Greeter.navigation.apply(
                IncomingEvent(screen: tree.top!.id, name: "greet", payload: ["name": .string(name)]), to: &tree,
                environment: environment)
            #expect(tree.top?.props["error"] == "Tell me a name of up to 50 characters.")
        }
        #expect(try connection.queryFirst("SELECT count(*) FROM greetings") { $0.int(0) } == 0)
    }

    @Test func aClientSendsTheCaseNameWithItsLabelsAsFields() throws {
        var tree = try Greeter.navigation.start(platform: .web, environment: environment)
        let hello = tree.top!.id
        try Greeter.navigation.apply(
            IncomingEvent(screen: hello, name: "greet", payload: ["name": " "]), to: &tree, environment: environment)
        #expect(tree.top?.props == ["error": "Tell me your name."])
        #expect(throws: EventRejection.invalidPayload([FieldError(field: "nom", message: "is not a field of greet")])) {
            try Greeter.navigation.apply(
                IncomingEvent(screen: hello, name: "greet", payload: ["name": "Ada", "nom": "Ada"]), to: &tree,
                environment: environment)
        }
    }
}
