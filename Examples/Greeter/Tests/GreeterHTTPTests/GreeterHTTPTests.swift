import CoordinatorTesting
import Testing

@testable import Greeter

/// The real `greeter` binary, built beside the tests, serving HTTP on a free port with a
/// database of its own.
@Suite struct GreeterHTTPTests {
    @Test func greetsOverHTTP() async throws {
        let server = try await LiveServer.start(product: "greeter")
        var session = try await server.newSession()
        #expect(session.topName == "hello")
        let answer = try await session.send(HelloScreen.self, .greet(name: "Ada"))
        #expect(answer.status == 200)
        #expect(try session.props(of: GreetingScreen.self).times == 1)
        let refused = try await session.send("greet", ["name": "Ada"])  // the greeting screen has no such event
        #expect(refused.status == 422)
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(try await server.stop() == 0)
    }

    /// Tabs, a person, the card's sheet dismissed (what a client sends when the user swipes it
    /// away), a card sent, and the confirm alert, as a client drives them over HTTP.
    @Test func theHistoryTabOverHTTP() async throws {
        let server = try await LiveServer.start(product: "greeter")
        var session = try await server.newSession()
        try await session.send(HelloScreen.self, .greet(name: "Ada"))
        #expect(try await session.send("selectTab", ["tab": "history"]).status == 200)
        #expect(try session.props(of: HistoryScreen.self).people == [Person(name: "Ada", times: 1)])
        try await session.send(HistoryScreen.self, .show(name: "Ada"))
        try await session.send(PersonScreen.self, .writeCard)
        try await session.send(CardScreen.self, .next(message: "Hello again"))
        #expect(try await session.send("dismiss").status == 200)
        #expect(try session.props(of: PersonScreen.self).cards == 0)
        try await session.send(PersonScreen.self, .writeCard)
        try await session.send(CardScreen.self, .next(message: "Hello again"))
        #expect(try await session.send(CardPreviewScreen.self, .send).status == 200)
        #expect(try session.props(of: PersonScreen.self).lastCard == "Hello again")
        try await session.send(PersonScreen.self, .forget)
        #expect(try await session.send(ForgetAlert.self, .forget).status == 200)
        #expect(try session.props(of: HistoryScreen.self).people == [])
        #expect(try await server.stop() == 0)
    }
}
