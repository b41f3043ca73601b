import Foundation
import Logging
import Navigation
import SQLiteStore
import Store
import Secrets
import Testing

@testable import Sessions

/// Writes a flow hands the service as lasting (`LastingWrites`) commit once whatever becomes of
/// the event: with it when it is applied, on their own when it is refused after the flow ran,
/// and once only when the flow ran more than once (read-only attempt, then the writer; again
/// after a preparation).
@Suite struct LastingWritesTests {
    enum Guess: ScreenType {
        static let name = "guess"
        struct Props: Codable, Sendable { var note: String }
        enum Output: ScreenOutput {
            case refused, refusedAfterPreparation, applied
            static let events: [OutputEvent<Output>] = [
                .event("refused", .refused), .event("refusedAfterPreparation", .refusedAfterPreparation),
                .event("applied", .applied),
            ]
        }
    }

    /// Counts a failure as a lasting write, then grows the session past its byte limit (the
    /// event is refused) unless the event is `applied`.
    struct Guesser: Coordinator {
        static let typeName = "Guesser"
        var screen: ScreenID?
        static func input(for event: ScreenEvent) throws -> Guess.Output? { try event.output(Guess.self) }
        mutating func start(_ context: inout Context) throws { screen = try context.push(Guess.self, .init(note: "")) }
        /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            guard let input = try Self.input(for: event) else { return .unhandled }
            try handle(input, &context)
            return .handled
        }

        mutating func handle(_ input: Guess.Output, _ context: inout Context) throws {
            try context.environment.require(LastingWrites.self).perform { connection in
                try connection.run("INSERT INTO failures (counted) VALUES (1)")
            }
            if input == .refusedAfterPreparation { _ = try context.prepared("slow") { 1 } }
            let note = input == .applied ? "applied" : String(repeating: "x", count: 4096)
            try context.update(screen!, as: Guess.self) { $0.note = note }
        }
    }

    static func service() throws -> (SessionService, SQLiteDatabase) {
        let database = try TestSessions.database(
            "lasting",
            adding: [
                Migration(version: 900, name: "failures", sql: "CREATE TABLE failures (id INTEGER PRIMARY KEY, counted INTEGER)")
            ])
        let service = TestSessions.service(
            NavigationApp(screens: [Guess.self], coordinators: [Guesser.self], root: { _ in Guesser() }), on: database,
            configuration: SessionConfiguration(maxSnapshotBytes: 2048), environment: { _, _, _ in Environment() })
        return (service, database)
    }

    static func failures(_ database: SQLiteDatabase) async throws -> Int {
        try await database.read { try $0.queryFirst("SELECT count(*) FROM failures") { $0.int(0) } ?? -1 }
    }

    static func version(_ database: SQLiteDatabase, _ id: String) async throws -> Int {
        try await database.read { try $0.queryFirst("SELECT version FROM sessions WHERE id = ?1", [.text(id)]) { $0.int(0) } ?? -1 }
    }

    /// Everything a refused event could have changed besides its lasting write: the stored row
    /// (snapshot, version, token, expiry), the session's journal and stored answers, and the
    /// State the service holds in memory.
    static func everythingElse(_ service: SessionService, _ database: SQLiteDatabase, _ session: (token: String, state: [UInt8], id: String))
        async throws -> [String]
    {
        let id = session.id
        let stored = try await database.read { connection in
            try connection.query(
                """
                SELECT hex(snapshot) || '|' || version || '|' || hex(token_hash) || '|' || expires_at || '|' ||
                       coalesce(journal_head, 0) || '|' || (SELECT count(*) FROM session_journal WHERE session_id = ?1)
                       || '|' || (SELECT count(*) FROM idempotency_keys WHERE session_id = ?1)
                FROM sessions WHERE id = ?1
                """, [.text(id)]
            ) { $0.string(0) }
        }
        let resident = try await service.withSession(id: id, token: session.token) { resident in
            String(decoding: service.render(resident.current, id: id), as: UTF8.self)
        }
        return stored + [resident]
    }

    @Test(arguments: ["refused", "refusedAfterPreparation"])
    func aRefusedEventsLastingWriteCommitsOnceAndNothingElseChanges(event: String) async throws {
        let (service, database) = try Self.service()
        let session = try await service.create(platform: .phone, clientAddress: "")
        let before = try await Self.everythingElse(service, database, session)
        #expect(before.count == 2)
        for attempt in 1...3 {
            await #expect(throws: EventRejection.sessionLimit("2048 bytes of state")) {
                try await service.post(try PreparationTests.event(event, session: session))
            }
            #expect(try await Self.failures(database) == attempt)
            #expect(try await Self.everythingElse(service, database, session) == before, "attempt \(attempt)")
        }
        #expect(try await Self.version(database, session.id) == 1)
    }

    @Test func anAppliedEventsLastingWriteCommitsWithItOnce() async throws {
        let (service, database) = try Self.service()
        let session = try await service.create(platform: .phone, clientAddress: "")
        let answer = try await service.post(try PreparationTests.event("applied", session: session))
        #expect(answer.version == 2)
        #expect(try await Self.failures(database) == 1)
    }
}
