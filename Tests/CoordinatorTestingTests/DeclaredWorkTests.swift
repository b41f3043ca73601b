import CoordinatorApp
import CoordinatorTesting
import Navigation
import Secrets
import Store
import Synchronization
import Testing

/// Work a coordinator declares in `prepare(for:_:)` is done before its flow runs, so the flow
/// runs once; work it does not declare is found by running the flow, which then runs again.
@Suite struct DeclaredWorkTests {
    final class Runs: Sendable { let count = Atomic(0) }

    enum Safe: ScreenType {
        static let summary = "Keeps a password's hash."
        struct Props: Codable, Sendable, Equatable {
            var hash: String?
            var looked: Int?
        }
        struct Secret: Codable, Sendable { var password: String }
        enum Output: ScreenOutput {
            case keep(Secret)
            static let events: [OutputEvent<Output>] = [.event("keep", Output.keep)]
        }
    }

    struct SafeCoordinator: Coordinator {
        static let screens: [any ScreenType.Type] = [Safe.self]
        var declares = false
        var writesWhenAsked = false
        var screen: ScreenID?

        mutating func start(_ context: inout Context) throws { screen = try context.push(Safe.self, .init()) }

        func prepare(for event: ScreenEvent, _ context: Context) throws -> EventAccess? {
            if writesWhenAsked {
                // Not allowed: the declaration's connection refuses it, and the flow runs to find out.
                try context.dependency(EventConnectionModel.self).connection.run("INSERT INTO safe_log (at) VALUES (1)", [])
            }
            guard declares, case .keep(let secret)? = try event.output(Safe.self) else { return nil }
            _ = try context.dependency(PreparedPasswords.self).hash(secret.password)
            _ = try context.prepared("look") { 42 }
            return .navigates
        }

        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            guard let screen, case .keep(let secret)? = try event.output(Safe.self) else { return .unhandled }
            try context.dependency(Runs.self).count.add(1, ordering: .relaxed)
            let hash = try context.dependency(PreparedPasswords.self).hash(secret.password)
            let looked = try context.prepared("look") { 42 }
            try context.update(screen, as: Safe.self) { ($0.hash, $0.looked) = (hash, looked) }
            return .handled
        }
    }

    /// The connection the event runs on, for a declaration that (wrongly) writes.
    struct EventConnectionModel: EventModel { let connection: any SQLConnection }

    static func served(declares: Bool, runs: Runs, writesWhenAsked: Bool = false) -> ServedApp {
        ServedApp(
            name: "safe",
            navigation: NavigationApp(reachableFrom: { _ in SafeCoordinator(declares: declares, writesWhenAsked: writesWhenAsked) }),
            migrations: { _ in [Migration(scope: "safe", version: 1, name: "log", sql: "CREATE TABLE safe_log (at INTEGER)")] },
            eventEnvironment: { _ in
                // No `PreparedPasswords`: every event's environment has them.
                var environment = Environment()
                environment.set(runs)
                return environment
            })
    }

    @Test(arguments: [true, false]) func declaredWorkIsDoneBeforeTheOneRun(declares: Bool) async throws {
        let runs = Runs()
        var app = try await AppTester(Self.served(declares: declares, runs: runs))
        try await app.send(Safe.self, .keep(.init(password: "correct horse battery staple")))
        let props = try app.props(of: Safe.self)
        #expect(props.looked == 42)
        #expect(AppTester.passwordHasher.verify("correct horse battery staple", against: try #require(props.hash)))
        // Undeclared: a run asks for the hash, one for the look-up, one with both.
        #expect(runs.count.load(ordering: .relaxed) == (declares ? 1 : 3))
        #expect(app.flowRunsOfLastEvent == (declares ? 1 : 3))
    }

    @Test func aDeclarationThatWritesKeepsNothingAndDecidesNothing() async throws {
        let runs = Runs()
        var app = try await AppTester(Self.served(declares: true, runs: runs, writesWhenAsked: true))
        try await app.send(Safe.self, .keep(.init(password: "correct horse battery staple")))
        #expect(try app.props(of: Safe.self).looked == 42, "the flow ran and answered")
        #expect(try app.rows(in: "safe_log") == 0, "the declaration's write was refused")
        #expect(runs.count.load(ordering: .relaxed) == 3, "undeclared, the flow found its work by running")
    }
}
