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
}
