import CoordinatorFlowTesting
import Navigation
import Testing

@testable import Greeter

@Suite struct GreeterTests {
    @Test func greetingTrimsCountsAndPushes() async throws {
        var app = try await AppTester(Greeter.served, platform: .web)
        try await app.send(HelloScreen.self, .greet(name: " Ada "))
        try await app.send("back")
        try await app.send(HelloScreen.self, .greet(name: "Ada"))
        let greeting = try app.props(of: GreetingScreen.self)
        #expect(greeting.text == "Hello, Ada!")
        #expect(greeting.times == 2)
        #expect(try app.database.queryFirst("SELECT times FROM greetings WHERE name = 'Ada'") { $0.int(0) } == 2)
    }

    @Test func aNameIsLimitedInBytesAndAccents() async throws {
        var app = try await AppTester(Greeter.served, platform: .web)
        for name in ["Z" + String(repeating: "\u{301}", count: 32_000), String(repeating: "n", count: 51)] {
            try await app.send(HelloScreen.self, .greet(name: Identifier(wrappedValue: name)))
            #expect(try app.props(of: HelloScreen.self).error == "Tell me a name of up to 50 characters.")
        }
        #expect(try app.rows(in: "greetings") == 0)
    }

    /// The whole State, as a client receives it.
    @Test func theStateAfterAGreeting() async throws {
        var app = try await AppTester(Greeter.served, platform: .web)
        try await app.send(HelloScreen.self, .greet(name: "Ada"))
        #expect(
            app.state == [
                "id": "session-1", "version": 2, "user": nil, "top": "s4",
                "stack": [
                    [
                        "presentation": "root", "selectedTab": "greet",
                        "tabs": [
                            [
                                "name": "greet", "title": "Greet",
                                "screens": [
                                    ["id": "s1", "name": "hello", "props": ["error": nil], "events": []],
                                    [
                                        "id": "s4", "name": "greeting", "props": ["text": "Hello, Ada!", "times": 1],
                                        "events": ["back", "selectTab"],
                                    ],
                                ],
                            ],
                            [
                                "name": "history", "title": "History",
                                "screens": [
                                    ["id": "s2", "name": "history", "props": ["people": [], "sortedBy": "name"], "events": []]
                                ],
                            ],
                            [
                                "name": "account", "title": "Account",
                                "screens": [["id": "s3", "name": "firstRun", "props": [:], "events": []]],
                            ],
                        ],
                    ]
                ],
            ])
    }

    /// On the wire the event is the case's name, its labelled values the payload's fields.
    @Test func aClientSendsTheCaseNameWithItsLabelsAsFields() async throws {
        var app = try await AppTester(Greeter.served, platform: .web)
        try await app.send("greet", ["name": " "])
        #expect(try app.props(of: HelloScreen.self).error == "Tell me your name.")
        await #expect(throws: EventRejection.invalidPayload([FieldError(field: "nom", message: "is not a field of greet")])) {
            try await app.send("greet", ["name": "Ada", "nom": "Ada"])
        }
    }

    /// A client that reads German gets the app's German; one that reads neither language the
    /// app has gets its own.
    @Test func anErrorInTheLanguageOfTheClient() async throws {
        var app = try await AppTester(Greeter.served)
        app.acceptLanguage = "de-AT, de;q=0.9"
        try await app.send(HelloScreen.self, .greet(name: "  "))
        #expect(try app.props(of: HelloScreen.self).error == "Sagen Sie mir Ihren Namen.")
        app.acceptLanguage = "fr"
        try await app.send(HelloScreen.self, .greet(name: "  "))
        #expect(try app.props(of: HelloScreen.self).error == "Tell me your name.")
        let hello = Greeter.navigation.catalog(in: "de")["screens"]?.arrayValue?.first { $0["name"] == "hello" }
        #expect(hello?["summary"] == "Fragt nach einem Namen.")
    }
}
