import Foundation
import Logging
import Navigation
import SQLiteStore
import Store
import Secrets
import TestSupport
import Testing

@testable import Sessions

/// A request that waited for its session while another event rotated the token (a sign-in, a
/// sign-out) lost that race: its token is dead by the time it runs, so it gets `401`, never the
/// new state nor its event applied (a pre-sign-in token must not reach the signed-in session).
@Suite struct StaleTokenTests {
    enum Door: ScreenType {
        static let name = "door"
        struct Props: Codable, Sendable { var knocks: Int }
        enum Output: ScreenOutput {
            case signIn, knock
            static let events: [OutputEvent<Output>] = [.event("signIn", .signIn), .event("knock", .knock)]
        }
    }

    /// `signIn` waits for the gate (slow work before its commit, with the session locked), then
    /// rotates the token; `knock` counts.
    struct Porter: Coordinator {
        static let typeName = "Porter"
        var door: ScreenID?
        static func input(for event: ScreenEvent) throws -> Door.Output? { try event.output(Door.self) }
        mutating func start(_ context: inout Context) throws { door = try context.push(Door.self, .init(knocks: 0)) }
        /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            guard let input = try Self.input(for: event) else { return .unhandled }
            try handle(input, &context)
            return .handled
        }

        mutating func handle(_ input: Door.Output, _ context: inout Context) throws {
            switch input {
            case .signIn:
                let gate = try context.environment.require(PreparationTests.Gate.self)
                _ = try context.prepared("sign-in") { try await gate.pass() }
                context.rotateCredentials()
            case .knock:
                try context.update(door!, as: Door.self) { $0.knocks += 1 }
            }
        }
    }

    static func service(gate: PreparationTests.Gate) throws -> (SessionService, SQLiteDatabase) {
        let database = try TestSessions.database("tokens")
        let service = TestSessions.service(
            NavigationApp(screens: [Door.self], coordinators: [Porter.self], root: { _ in Porter() }), on: database,
            environment: { _, _, _ in
                var environment = Environment()
                environment.set(gate)
                return environment
            })
        return (service, database)
    }

    /// A session in memory recognises the token a request proved by its keyed check (no SHA-256
    /// again); once a sign-in rotated the token, the check proved for the old one counts for
    /// nothing: the old token is refused, the new one is proved and then recognised.
    @Test func aTokenRecognisedInMemoryIsRefusedOnceRotated() async throws {
        let gate = PreparationTests.Gate()
        gate.open.store(true, ordering: .releasing)
        let (service, database) = try Self.service(gate: gate)
        let session = try await service.create(platform: .phone, clientAddress: "")
        let resident = try #require(service.cache.checkOut(session.id))
        defer { resident.release() }

        _ = try await service.post(try PreparationTests.event("knock", session: session))
        let proven = try #require(resident.current.provenToken)
        #expect(proven.check == TokenCheck(session.token) && proven.check != TokenCheck(session.token + "x"))
        #expect(proven.tokenHash == Tokens.sha256(session.token))
        #expect(try await service.post(try PreparationTests.event("knock", session: session)).version == 3)

        let signedIn = try await service.post(try PreparationTests.event("signIn", session: session))
        let newToken = try #require(try JSONValue.parse(signedIn.body)["token"]?.stringValue)
        do {
            let applied = try await service.post(try PreparationTests.event("knock", session: session))
            Issue.record("the rotated-away token applied an event: version \(applied.version)")
        } catch SessionError.unauthorized {
            // Its check was proved for a hash the session no longer has.
        }
        let rotated = (token: newToken, state: signedIn.body, id: session.id)
        for version in 5...6 {
            #expect(try await service.post(try PreparationTests.event("knock", session: rotated)).version == version)
        }
        #expect(resident.current.provenToken?.tokenHash == Tokens.sha256(newToken))
        await database.close()
    }

    @Test func aRequestWhoseTokenWasRotatedWhileItWaitedIs401() async throws {
        let gate = PreparationTests.Gate()
        let (service, database) = try Self.service(gate: gate)
        let session = try await service.create(platform: .phone, clientAddress: "")

        // The sign-in holds the session (its slow work waits for the gate)...
        let signIn = Task { try await service.post(try PreparationTests.event("signIn", session: session)) }
        try await waitUntil("the sign-in's slow work to start") { gate.started.load(ordering: .acquiring) }
        // ...while a request with the same, still current token queues behind it.
        let knock = Task { try await service.post(try PreparationTests.event("knock", session: session)) }
        let resident = try #require(service.cache.checkOut(session.id))
        defer { resident.release() }
        try await waitUntil("the knock to wait for the session") { resident.lock.waiting == 1 }

        gate.open.store(true, ordering: .releasing)
        let signedIn = try await signIn.value("the sign-in")
        #expect(signedIn.version == 2)
        do {
            let applied = try await knock.value("the knock")
            Issue.record("applied with a token rotated away before it ran: version \(applied.version)")
        } catch SessionError.unauthorized {
            // Its token died while it waited.
        }
        #expect(resident.current.version == 2)
        await database.close()
    }
}
