import Foundation
import Logging
import Navigation
import SQLiteStore
import Store
import Secrets
import Synchronization
import TestSupport
import Testing

@testable import Sessions

/// Slow work a flow needs runs before the commit, outside the writer, so other sessions'
/// events commit while it is pending.
@Suite struct PreparationTests {
    /// Work that waits until the test opens it, and says when it has started.
    final class Gate: Sendable {
        let started = Atomic<Bool>(false)
        let open = Atomic<Bool>(false)

        func pass() async throws -> Int {
            started.store(true, ordering: .releasing)
            try await waitUntil("the test to open the gate") { open.load(ordering: .acquiring) }
            return 42
        }
    }

    enum Board: ScreenType {
        static let name = "board"
        struct Props: Codable, Sendable { var value: Int }
        enum Output: ScreenOutput {
            case slow, fast
            static let events: [OutputEvent<Output>] = [.event("slow", .slow), .event("fast", .fast)]
        }
    }

    struct Counter: Coordinator {
        static let typeName = "Counter"
        var board: ScreenID?
        static func input(for event: ScreenEvent) throws -> Board.Output? { try event.output(Board.self) }
        mutating func start(_ context: inout Context) throws { board = try context.push(Board.self, .init(value: 0)) }
        /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            guard let input = try Self.input(for: event) else { return .unhandled }
            try handle(input, &context)
            return .handled
        }

        mutating func handle(_ input: Board.Output, _ context: inout Context) throws {
            guard let board, let gate = context.environment[Gate.self] else { return }
            let value = input == .slow ? try context.prepared("slow") { try await gate.pass() } : 1
            try context.update(board, as: Board.self) { $0.value += value }
        }
    }

    static func service(gate: Gate) throws -> SessionService {
        TestSessions.service(
            NavigationApp(screens: [Board.self], coordinators: [Counter.self], root: { _ in Counter() }),
            on: try TestSessions.database("prepare"),
            environment: { _, _, _ in
                var environment = Environment()
                environment.set(gate)
                return environment
            })
    }

    static func event(_ name: String, session: (token: String, state: [UInt8], id: String)) throws -> EventRequest {
        let state = try JSONValue.parse(session.state)
        return EventRequest(
            sessionID: session.id, token: session.token,
            event: IncomingEvent(screen: ScreenID(state["top"]?.stringValue ?? ""), name: name), ifMatch: nil,
            idempotencyKey: nil, requestHash: [], clientAddress: "")
    }

    @Test func slowWorkRunsOutsideTheWriterAndOtherSessionsCommitMeanwhile() async throws {
        let gate = Gate()
        let service = try Self.service(gate: gate)
        let waiting = try await service.create(platform: .phone, clientAddress: "")
        let other = try await service.create(platform: .phone, clientAddress: "")

        let slow = Task { try await service.post(try Self.event("slow", session: waiting)) }
        try await waitUntil("the slow work to start") { gate.started.load(ordering: .acquiring) }
        // The slow event's work is pending, and the writer is free: another session commits.
        let fast = try await service.post(try Self.event("fast", session: other))
        #expect(fast.version == 2)
        gate.open.store(true, ordering: .releasing)
        let answer = try await slow.value("the slow event")
        #expect(answer.version == 2)
        let state = try JSONValue.parse(answer.body)
        let props = state["stack"]?.arrayValue?.first?["screens"]?.arrayValue?.first?["props"]
        #expect(props == ["value": 42])
    }
}
