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

/// An event whose flow uses no connection runs without one; one that only reads runs off the
/// writer, on a read-only connection; one that writes runs on the writer. Each way the answer is
/// what the flow made from committed data.
@Suite struct ReadOnlyFlowTests {
    enum Notes: ScreenType {
        static let name = "notes"
        struct Props: Codable, Sendable { var count: Int }
        enum Output: ScreenOutput {
            case add, addQuietly, count, countQuietly, stay
            static let events: [OutputEvent<Output>] = [
                .event("add", .add), .event("addQuietly", .addQuietly), .event("count", .count),
                .event("countQuietly", .countQuietly), .event("stay", .stay),
            ]
        }
    }

    /// The notes table, and a flag raised when a `count` flow has counted.
    struct NoteTable {
        let connection: any SQLConnection
        let counted: Flag

        func add() throws { try connection.run("INSERT INTO notes (added) VALUES (1)") }
        func count() throws -> Int { try connection.queryFirst("SELECT count(*) FROM notes") { $0.int(0) } ?? -1 }
    }

    final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
        /// How many times a flow's handler began (each run of an event, complete or not).
        let handlerRuns = Atomic<Int>(0)
    }

    struct NoteTaker: Coordinator {
        static let typeName = "NoteTaker"
        var screen: ScreenID?
        static func input(for event: ScreenEvent) throws -> Notes.Output? { try event.output(Notes.self) }
        mutating func start(_ context: inout Context) throws { screen = try context.push(Notes.self, .init(count: 0)) }
        /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            guard let input = try Self.input(for: event) else { return .unhandled }
            try handle(input, &context)
            return .handled
        }

        mutating func handle(_ input: Notes.Output, _ context: inout Context) throws {
            let notes = try context.environment.require(NoteTable.self)
            notes.counted.handlerRuns.add(1, ordering: .relaxed)
            let count: Int
            switch input {
            case .add:
                try notes.add()
                count = try notes.count()
            case .addQuietly:
                try? notes.add()  // a flow that goes on after a failed write
                count = try notes.count()
            case .count:
                count = try notes.count()
                notes.counted.raised.store(true, ordering: .releasing)
            case .countQuietly: count = (try? notes.count()) ?? -1  // goes on after a failed read
            case .stay: count = 100  // uses no connection at all
            }
            try context.update(screen!, as: Notes.self) { $0.count = count }
        }
    }

    static func service(counted: Flag) throws -> (SessionService, SQLiteDatabase) {
        let database = try TestSessions.database(
            "flows",
            adding: [Migration(version: 900, name: "notes", sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, added INTEGER)")])
        let service = TestSessions.service(
            NavigationApp(screens: [Notes.self], coordinators: [NoteTaker.self], root: { _ in NoteTaker() }), on: database,
            environment: { connection, _, _ in
                var environment = Environment()
                environment.set(NoteTable(connection: connection, counted: counted))
                return environment
            })
        return (service, database)
    }

    static func count(_ answer: StoredAnswer) throws -> Int? {
        let state = try JSONValue.parse(answer.body)
        return state["stack"]?.arrayValue?.first?["screens"]?.arrayValue?.first?["props"]?["count"]?.intValue
    }

    static func rows(_ database: SQLiteDatabase) async throws -> Int {
        try await database.read { try $0.queryFirst("SELECT count(*) FROM notes") { $0.int(0) } ?? -1 }
    }

    @Test func aFlowThatOnlyReadsRunsWhileTheWriterIsBusyAndSeesEarlierCommits() async throws {
        let counted = Flag()
        let (service, database) = try Self.service(counted: counted)
        let writer = try await service.create(platform: .phone, clientAddress: "")
        let reader = try await service.create(platform: .phone, clientAddress: "")
        #expect(try Self.count(try await service.post(try PreparationTests.event("add", session: writer))) == 1)

        // Hold the writer thread; the reading flow runs meanwhile, and its answer waits for the
        // writer only to store the new version.
        let (holding, release) = (Flag(), DispatchSemaphore(value: 0))
        let hold = Task {
            try await database.writer.write { _ in
                holding.raised.store(true, ordering: .releasing)
                // Blocks the writer's own thread, never one of Swift's pool.
                try wait(for: release, "the test to release the writer")
            }
        }
        try await waitUntil("the writer to run the holding write") { holding.raised.load(ordering: .acquiring) }
        let answer = Task { try await service.post(try PreparationTests.event("count", session: reader)) }
        do {
            // Past the deadline only when the flow waits for the writer.
            try await waitUntil("the counting flow to run while the writer is held") {
                counted.raised.load(ordering: .acquiring)
            }
        } catch {
            release.signal()
            throw error
        }
        release.signal()
        try await hold.value("the holding write")
        let counting = try await answer.value("the counting event")
        #expect(counting.version == 2)
        #expect(try Self.count(counting) == 1)
    }

    @Test func aFlowThatSwallowsARefusedWriteRunsAgainOnTheWriterAndItsWriteCommits() async throws {
        let (service, database) = try Self.service(counted: Flag())
        let session = try await service.create(platform: .phone, clientAddress: "")
        let answer = try await service.post(try PreparationTests.event("addQuietly", session: session))
        #expect(try Self.count(answer) == 1)
        #expect(try await Self.rows(database) == 1)
    }

    @Test func aFlowThatSwallowsARefusedReadRunsAgainOnAConnection() async throws {
        let (service, database) = try Self.service(counted: Flag())
        let session = try await service.create(platform: .phone, clientAddress: "")
        _ = try await service.post(try PreparationTests.event("add", session: session))
        let answer = try await service.post(try PreparationTests.event("countQuietly", session: session))
        #expect(try Self.count(answer) == 1, "the count the read found, not the refusal's -1")
        #expect(try await Self.rows(database) == 1)
    }

    @Test func aFlowThatUsesNoConnectionIsStoredLikeAnyOther() async throws {
        let (service, database) = try Self.service(counted: Flag())
        let session = try await service.create(platform: .phone, clientAddress: "")
        let answer = try await service.post(try PreparationTests.event("stay", session: session))
        #expect(answer.version == 2)
        #expect(try Self.count(answer) == 100)
        let stored = try await database.read {
            try $0.queryFirst("SELECT version FROM sessions WHERE id = ?1", [.text(session.id)]) { $0.int(0) }
        }
        #expect(stored == 2)
    }

    /// An event whose flow read when it last ran skips the run without a connection, which would
    /// stop at its first read after doing the handler's work for nothing; an event that reads
    /// nothing keeps running without one.
    @Test func anEventThatReadLastTimeRunsOnAConnectionFirst() async throws {
        let counted = Flag()
        let (service, _) = try Self.service(counted: counted)
        let session = try await service.create(platform: .phone, clientAddress: "")
        func handlerRuns(_ event: String) async throws -> Int {
            let before = counted.handlerRuns.load(ordering: .relaxed)
            _ = try await service.post(try PreparationTests.event(event, session: session))
            return counted.handlerRuns.load(ordering: .relaxed) - before
        }
        #expect(try await handlerRuns("count") == 2, "without a connection up to the read, then on a reader")
        #expect(try await handlerRuns("count") == 1)
        #expect(try await handlerRuns("stay") == 1)
        #expect(try await handlerRuns("stay") == 1)
        #expect(service.connectionHints.reads(.init(screen: "notes", event: "count")))
        #expect(!service.connectionHints.reads(.init(screen: "notes", event: "stay")))
        // Only declared events are noted: a client's made-up name cannot grow the hints.
        service.connectionHints.noteReading(.init(screen: "notes", event: "madeUp"), app: service.app)
        #expect(!service.connectionHints.reads(.init(screen: "notes", event: "madeUp")))
    }
}
