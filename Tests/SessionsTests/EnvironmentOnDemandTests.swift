import Foundation
import Logging
import Navigation
import SQLiteStore
import Secrets
import Store
import Synchronization
import Testing

@testable import Sessions

/// The app's environment is built for a run only when a coordinator asks for a dependency: an
/// event that only navigates builds none, one that asks builds it once per run.
@Suite struct EnvironmentOnDemandTests {
    enum Page: ScreenType {
        static let name = "page"
        struct Props: Codable, Sendable { var looked: Int }
        enum Output: ScreenOutput {
            case next, look
            static let events: [OutputEvent<Output>] = [.event("next", .next), .event("look", .look)]
        }
    }

    /// The dependency, and how many times the app's factory built an environment.
    final class Builds: Sendable {
        let count = Atomic<Int>(0)
    }

    struct Pages: Coordinator {
        static let typeName = "Pages"
        mutating func start(_ context: inout Context) throws { _ = try context.push(Page.self, .init(looked: 0)) }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            switch try event.output(Page.self) {
            case .next?: _ = try context.push(Page.self, .init(looked: 0))
            case .look?:
                let builds = try context.environment.require(Builds.self)
                try context.update(event.screen.id, as: Page.self) { $0.looked = builds.count.load(ordering: .relaxed) }
            case nil: return .unhandled
            }
            return .handled
        }
    }

    static func service(_ builds: Builds) throws -> SessionService {
        TestSessions.service(
            NavigationApp(screens: [Page.self], coordinators: [Pages.self], root: { _ in Pages() }),
            on: try TestSessions.database("env"),
            environment: { _, _, _ in
                builds.count.add(1, ordering: .relaxed)
                var environment = Environment()
                environment.set(builds)
                return environment
            })
    }

    @Test func onlyARunThatAsksBuildsTheEnvironment() async throws {
        let builds = Builds()
        let service = try Self.service(builds)
        let session = try await service.create(platform: .phone, clientAddress: "")
        let moved = try await service.post(try PreparationTests.event("next", session: session))
        #expect(builds.count.load(ordering: .relaxed) == 0)
        let looked = try await service.post(
            try PreparationTests.event("look", session: (session.token, moved.body, session.id)))
        // The look's run built it once, before reading the count it answers with.
        #expect(builds.count.load(ordering: .relaxed) == 1)
        let top = try JSONValue.parse(looked.body)["stack"]?.arrayValue?.first?["screens"]?.arrayValue?.last
        #expect(top?["props"]?["looked"]?.intValue == 1)
    }

    /// Copies of a deferred environment share its one build, and setting a dependency on one
    /// builds it first, keeping what the build set.
    @Test func aDeferredEnvironmentIsBuiltOnceOnFirstUse() throws {
        let builds = Builds()
        let environment = Environment(deferred: {
            builds.count.add(1, ordering: .relaxed)
            var built = Environment()
            built.set("built")
            return built
        })
        let copy = environment
        #expect(builds.count.load(ordering: .relaxed) == 0)
        #expect(copy[String.self] == "built")
        #expect(environment[String.self] == "built")
        #expect(builds.count.load(ordering: .relaxed) == 1)
        var changed = environment
        changed.set(7)
        #expect(changed[Int.self] == 7)
        #expect(changed[String.self] == "built")
        #expect(environment[Int.self] == nil)
        #expect(builds.count.load(ordering: .relaxed) == 1)
    }
}
