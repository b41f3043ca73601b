import Foundation
import SQLiteStore
import Testing

@Suite struct WriterTests {
    static func database() throws -> Database {
        try Database(
            path: MigratorTests.temporaryPath(),
            migrations: [Migration(version: 1, name: "items", sql: "CREATE TABLE items (name TEXT PRIMARY KEY)")])
    }

    @Test func concurrentWritesAreGroupCommittedAndAllDurable() async throws {
        let database = try Self.database()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    _ = try await database.writer.write { connection -> Int in
                        try connection.run("INSERT INTO items (name) VALUES (?1)", [.text("i\(index)")])
                    }
                }
            }
            try await group.waitForAll()
        }
        let count = try await database.readers.read { try $0.queryFirst("SELECT count(*) FROM items") { $0.int(0) } }
        #expect(count == 200)
        let statistics = database.writer.statistics
        #expect(statistics.writes == 200)
        #expect(statistics.batches <= 200)
        database.close()
    }

    @Test func aFailingWriteRollsBackOnlyItself() async throws {
        let database = try Self.database()
        _ = try await database.writer.write { try $0.run("INSERT INTO items (name) VALUES ('taken')") }
        async let good: Int = database.writer.write { try $0.run("INSERT INTO items (name) VALUES ('fresh')") }
        let bad = Task {
            try await database.writer.write { connection in
                try connection.run("INSERT INTO items (name) VALUES ('half')")
                return try connection.run("INSERT INTO items (name) VALUES ('taken')")
            }
        }
        #expect(try await good == 1)
        await #expect(throws: SQLiteError.self) { try await bad.value }
        let names = try await database.readers.read { try $0.query("SELECT name FROM items ORDER BY name") { $0.string(0) } }
        #expect(names == ["fresh", "taken"])
        database.close()
    }

    @Test func writesAfterCloseFail() async throws {
        let database = try Self.database()
        database.close()
        await #expect(throws: WriterClosed.self) {
            _ = try await database.writer.write { try $0.run("INSERT INTO items (name) VALUES ('late')") }
        }
    }

    @Test func healthCheckAnswers() async throws {
        let database = try Self.database()
        #expect(await database.isHealthy())
        database.close()
    }
}
