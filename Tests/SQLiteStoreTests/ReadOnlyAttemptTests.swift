import Foundation
import SQLiteStore
import Store
import Synchronization
import TestSupport
import Testing

/// Work tried off the writer: it runs beside it on a reader, sees committed data as of one
/// moment, and any write it tries is refused, reported, and leaves nothing behind. When it only
/// read, its result goes on to the writer.
@Suite struct ReadOnlyAttemptTests {
    struct Refusal: Error, Equatable {}
    final class Flag: Sendable { let raised = Atomic<Bool>(false) }

    static func names(_ connection: any SQLConnection) throws -> [String] {
        try connection.query("SELECT name FROM items ORDER BY name") { $0.string(0) }
    }

    static func completed<T>(_ attempt: ReadOnlyAttempt<T>?) -> T? {
        if case .completed(let value)? = attempt { return value }
        return nil
    }

    static func needsWriter<T>(_ attempt: ReadOnlyAttempt<T>?) -> Bool {
        if case .needsWriter? = attempt { return true }
        return false
    }

    /// Reads, with nothing to write after.
    static func read<T: Sendable>(_ database: SQLiteDatabase, _ work: @escaping @Sendable (any SQLConnection) throws -> T)
        async throws -> ReadOnlyAttempt<T>?
    {
        try await database.attemptReadOnly(work) { result, _ in result }
    }

    @Test func theReadRunsWhileTheWriterIsBusyAndItsResultIsWrittenAfter() async throws {
        let database = try WriterTests.database()
        try await database.write { try $0.run("INSERT INTO items (name) VALUES ('a')") }
        let held = try await WriterTests.HeldWriter.hold(database)
        let read = Flag()
        let attempt = Task {
            try await database.attemptReadOnly({ connection -> [String] in
                defer { read.raised.store(true, ordering: .releasing) }
                return try Self.names(connection)
            }) { names, connection in
                try connection.run("INSERT INTO items (name) VALUES (?1)", [.text(names.joined() + "-copy")])
                return names
            }
        }
        // The writer thread is occupied: the read does not need it (past the deadline only when
        // the read waits for the writer).
        do {
            try await waitUntil("the read to run while the writer is held") { read.raised.load(ordering: .acquiring) }
        } catch {
            try await held.release()
            throw error
        }
        try await held.release()
        #expect(Self.completed(try await attempt.value("the read-only attempt")) == ["a"])
        #expect(try await database.read { try Self.names($0) } == ["a", "a-copy"])
    }

    @Test func aWriteIsRefusedAndReportedEvenWhenTheWorkSwallowsTheRefusal() async throws {
        let database = try WriterTests.database()
        let writes: [@Sendable (any SQLConnection) throws -> Void] = [
            { _ = try $0.run("INSERT INTO items (name) VALUES ('x')") },
            { try $0.execute("INSERT INTO items (name) VALUES ('x')") },
            { _ = try $0.query("INSERT INTO items (name) VALUES ('x') RETURNING name") { $0.string(0) } },
            { _ = try $0.queryFirst("DELETE FROM items RETURNING name") { $0.string(0) } },
        ]
        let wroteAfter = Flag()
        for write in writes {
            let swallowed = try await database.attemptReadOnly({ connection -> Int in
                try? write(connection)
                return 1
            }) { _, _ in wroteAfter.raised.store(true, ordering: .releasing) }
            #expect(Self.needsWriter(swallowed))
            // Whatever the work throws after its write was refused, the caller learns it needs the writer.
            let thrown = try await database.attemptReadOnly({ connection -> Int in
                try write(connection)
                return 1
            }) { _, _ in wroteAfter.raised.store(true, ordering: .releasing) }
            #expect(Self.needsWriter(thrown))
        }
        let ranTheWrite = wroteAfter.raised.load(ordering: .acquiring)
        #expect(!ranTheWrite)
        #expect(try await database.read { try Self.names($0) } == [])
    }

    @Test func anErrorOfWorkThatOnlyReadReachesTheCaller() async throws {
        let database = try WriterTests.database()
        await #expect(throws: Refusal()) {
            _ = try await Self.read(database) { connection -> Int in
                _ = try Self.names(connection)
                throw Refusal()
            }
        }
    }

    @Test func oneAttemptReadsOneMomentOfTheDatabase() async throws {
        let database = try WriterTests.database()
        let path = database.path
        let seen = Self.completed(
            try await Self.read(database) { connection -> [[String]] in
                let before = try Self.names(connection)
                try SQLiteConnection(path: path).run("INSERT INTO items (name) VALUES ('b')")  // commits meanwhile
                return [before, try Self.names(connection)]
            })
        #expect(seen == [[], []])
        #expect(Self.completed(try await Self.read(database) { try Self.names($0) }) == ["b"])
    }
}
