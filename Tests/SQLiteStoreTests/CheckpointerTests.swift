import Foundation
import SQLiteStore
import Store
import TestSupport
import Testing

@Suite struct CheckpointerTests {
    static func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Each round commits one write of ~75 log pages, past a threshold of 64: the commit returns,
    /// the checkpointer copies the log back on its own, and the next write starts the log over.
    /// So the database file holds every row while the log never holds more than one round.
    @Test(.timeLimit(.minutes(2))) func theLogIsCopiedBackOffTheWriterAndStartsOver() async throws {
        let path = MigratorTests.temporaryPath()
        let database = try SQLiteDatabase(
            path: path, migrations: [Migration(version: 1, name: "blobs", sql: "CREATE TABLE blobs (payload BLOB)")],
            checkpointPages: 64)
        let blobBytes = 300 * 1024
        let rounds = 10
        for _ in 0..<rounds {
            let before = database.checkpointer.current.checkpoints
            try await database.write { try $0.run("INSERT INTO blobs (payload) VALUES (zeroblob(?1))", [.int(blobBytes)]) }
            // Waits for the checkpoint that this commit asked for, and for it to have copied everything.
            try await waitUntil("a checkpoint that copies the whole log") {
                let current = database.checkpointer.current
                return current.checkpoints > before && current.copiedPages == current.logPages
            }
        }
        #expect(Self.fileSize(path) >= rounds * blobBytes)
        let logBytes = Self.fileSize(path + "-wal")
        #expect(logBytes > 0 && logBytes < 2 * blobBytes, "the log holds \(logBytes) bytes")
        let rows = try await database.read { try $0.queryFirst("SELECT count(*) FROM blobs") { $0.int(0) } }
        #expect(rows == rounds)
        await database.close()
    }

    /// Below the threshold nothing is copied back: the log is left to grow until it is worth it.
    @Test func smallCommitsLeaveTheLogAlone() async throws {
        let database = try SQLiteDatabase(
            path: MigratorTests.temporaryPath(),
            migrations: [Migration(version: 1, name: "items", sql: "CREATE TABLE items (name TEXT)")],
            checkpointPages: 1_000)
        for index in 0..<20 {
            try await database.write { try $0.run("INSERT INTO items (name) VALUES (?1)", [.text("i\(index)")]) }
        }
        #expect(database.checkpointer.current.checkpoints == 0)
        await database.close()
    }
}
