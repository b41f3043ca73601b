import Foundation
import Logging
import Navigation
import Testing
import TestSupport

@testable import CoordinatorServer

/// The server as a value: `RunningServer.start` serves an app in the test's own process, on a
/// free port and a real SQLite file, as `serve` does, and `stop` ends it; nothing is spawned.
@Suite struct InProcessServerTests {
    enum Counter: ScreenType {
        static let summary = "Counts taps."
        struct Props: Codable, Sendable, Equatable { var taps = 0 }
        enum Output: ScreenOutput {
            case tap
            static let events: [OutputEvent<Output>] = [.event("tap", .tap)]
        }
    }

    struct TapCoordinator: Coordinator {
        static let screens: [any ScreenType.Type] = [Counter.self]
        var screen: ScreenID?
        mutating func start(_ context: inout Context) throws { screen = try context.push(Counter.self, .init()) }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            guard let screen, try event.output(Counter.self) == .tap else { return .unhandled }
            try context.update(screen, as: Counter.self) { $0.taps += 1 }
            return .handled
        }
    }

    static let app = ServedApp(name: "taps", navigation: NavigationApp(reachableFrom: { _ in TapCoordinator() }), migrations: { _ in [] })

    static var logger: Logger {
        var logger = Logger(label: "in-process")
        logger.logLevel = .warning
        return logger
    }

    @Test(arguments: Backend.allCases) func servesStopsAndResumesOnTheSameDatabase(backend: Backend) async throws {
        let arguments = ["--port", "0", "--host", "127.0.0.1", "--database", try await backend.newDatabase()]

        let first = try await RunningServer.start(Self.app, arguments: arguments, logger: Self.logger)
        var client = try await SessionClient.create(port: UInt16(first.port))
        try Journey.expect200(try await client.send("tap"))
        try Journey.expect200(try await client.send("tap"))
        #expect(client.topScreen.props["taps"] as? Int == 2)
        #expect(try await TestHTTP.request(port: UInt16(first.port), "GET", "/healthz").status == 200)
        #expect(await first.stop(), "every request finished")
        await #expect(throws: (any Error).self) { try await TestHTTP.request(port: UInt16(first.port), "GET", "/healthz") }

        // Another server on the same file resumes the session where the first left it.
        let second = try await RunningServer.start(Self.app, arguments: arguments, logger: Self.logger)
        client = SessionClient(port: UInt16(second.port), id: client.id, token: client.token, stateText: client.stateText)
        try Journey.expect200(try await client.send("tap"))
        #expect(client.topScreen.props["taps"] as? Int == 3)
        #expect(await second.stop())
    }

    @Test func aWrongOptionIsServesOneLineError() async throws {
        await #expect {
            try await RunningServer.start(Self.app, arguments: ["--port", "not-a-port"], logger: Self.logger)
        } throws: { error in
            "\(error)".contains("port") && !"\(error)".contains("\n")
        }
    }
}
