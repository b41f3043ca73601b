import Foundation
import SQLiteStore
import Store
import Testing

/// Work tried off the writer: it runs beside it on a reader, sees committed data as of one
/// moment, and any write it tries is refused, reported, and leaves nothing behind.
@Suite struct ReadOnlyAttemptTests {
    struct Refusal: Error, Equatable {}

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

    @Test func readsRunWhileTheWriterIsBusyAndSeeWhatWasCommitted() async throws {
        let database = try WriterTests.database()
        try await database.write { try $0.run("INSERT INTO items (name) VALUES ('a')") }
        let held = await WriterTests.HeldWriter.hold(database)
        // The writer thread is occupied: the attempt does not need it.
        let names = Self.completed(try await database.attemptReadOnly { try Self.names($0) })
        try await held.release()
        #expect(names == ["a"])
    }

    @Test func aWriteIsRefusedAndReportedEvenWhenTheWorkSwallowsTheRefusal() async throws {
        let database = try WriterTests.database()
        let writes: [@Sendable (any SQLConnection) throws -> Void] = [
            { _ = try $0.run("INSERT INTO items (name) VALUES ('x')") },
            { try $0.execute("INSERT INTO items (name) VALUES ('x')") },
            { _ = try $0.query("INSERT INTO items (name) VALUES ('x') RETURNING name") { $0.string(0) } },
            { _ = try $0.queryFirst("DELETE FROM items RETURNING name") { $0.string(0) } },
        ]
        for write in writes {
            let swallowed = try await database.attemptReadOnly { connection -> Int in
                try? write(connection)
                return 1
            }
            #expect(Self.needsWriter(swallowed))
            // Whatever the work throws after its write was refused, the caller learns it needs the writer.
            let thrown = try await database.attemptReadOnly { connection -> Int in
                try write(connection)
                return 1
            }
            #expect(Self.needsWriter(thrown))
        }
        #expect(try await database.read { try Self.names($0) } == [])
    }

    @Test func anErrorOfWorkThatOnlyReadReachesTheCaller() async throws {
        let database = try WriterTests.database()
        await #expect(throws: Refusal()) {
            _ = try await database.attemptReadOnly { connection -> Int in
                _ = try Self.names(connection)
                throw Refusal()
            }
        }
    }

    @Test func oneAttemptReadsOneMomentOfTheDatabase() async throws {
        let database = try WriterTests.database()
        let path = database.path
        let seen = Self.completed(
            try await database.attemptReadOnly { connection -> [[String]] in
                let before = try Self.names(connection)
                try SQLiteConnection(path: path).run("INSERT INTO items (name) VALUES ('b')")  // commits meanwhile
                return [before, try Self.names(connection)]
            })
        #expect(seen == [[], []])
        #expect(Self.completed(try await database.attemptReadOnly { try Self.names($0) }) == ["b"])
    }
}
