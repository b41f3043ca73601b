import Foundation
import Synchronization
import SQLiteStore
import Store
import TestSupport
import Testing

/// Each test is bounded by `withDeadline`, which does not count the time the machine did not run,
/// rather than by `.timeLimit`, which counts wall time: in one CI run all three tests that had a
/// two-minute `.timeLimit` went past it together, while every stall-aware wait in the suite held.
@Suite struct CheckpointerTests {
    static func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Each round commits one write of ~75 log pages, past a threshold of 64: the commit returns,
    /// the checkpointer copies the log back on its own, and the next write starts the log over.
    /// So the database file holds every row while the log never holds more than one round.
    @Test func theLogIsCopiedBackOffTheWriterAndStartsOver() async throws {
        try await withDeadline("ten rounds of a write and its checkpoint", seconds: 120) {
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
            // Rounds that met the writer's own checkpoint were skipped, not failed.
            #expect(database.checkpointer.current.failedRounds == 0)
            let logBytes = Self.fileSize(path + "-wal")
            #expect(logBytes > 0 && logBytes < 2 * blobBytes, "the log holds \(logBytes) bytes")
            let rows = try await database.read { try $0.queryFirst("SELECT count(*) FROM blobs") { $0.int(0) } }
            #expect(rows == rounds)
            await database.close()
        }
    }

    /// A page leaves the log only once its copy in the database file is synced. A round copies
    /// the whole log, then its sync is held: commits go on, and they append to the log instead of
    /// starting it over (which would drop pages not yet durable in the file). Once the sync is
    /// done, the writer copies the tail and a later write starts the log over.
    @Test func theLogStartsOverOnlyAfterTheFileIsSynced() async throws {
        try await withDeadline("a held sync, then the log starting over", seconds: 120) {
            let path = MigratorTests.temporaryPath()
            try SQLiteConnection(path: path).execute("CREATE TABLE blobs (payload BLOB)")
            let firstSync = HeldOnce()
            let checkpointer = try Checkpointer(path: path, threshold: 64) { file, inSlices in
                firstSync.pass()
                return Checkpointer.sync(file, inSlices: inSlices)
            }
            let writer = try Writer(path: path, checkpointer: checkpointer)
            let insert = "INSERT INTO blobs (payload) VALUES (zeroblob(?1))"
            try await writer.write { try $0.run(insert, [.int(300 * 1024)]) }
            let logPages = checkpointer.logPagesAtLastCommit
            #expect(logPages >= 64)
            try await waitUntil("the first round copied the log and waits to sync") { firstSync.isHolding }

            for _ in 0..<3 { try await writer.write { try $0.run(insert, [.int(100)]) } }
            #expect(checkpointer.logPagesAtLastCommit > logPages, "the log started over before the file was synced")
            #expect(checkpointer.current.checkpoints == 0)

            firstSync.release()
            try await Self.expectTheLogStartsOver(writer: writer, checkpointer: checkpointer, path: path)
        }
    }

    /// A failed sync keeps the pages it was to make durable in the log: the log does not start over,
    /// the failure is counted, and once a later round syncs, it does.
    @Test func aFailedSyncKeepsTheLogUntilASyncSucceeds() async throws {
        try await withDeadline("failed syncs, then the log starting over", seconds: 120) {
            let path = MigratorTests.temporaryPath()
            try SQLiteConnection(path: path).execute("CREATE TABLE blobs (payload BLOB)")
            let failing = Atomic(true)
            let checkpointer = try Checkpointer(path: path, threshold: 64) { file, inSlices in
                !failing.load(ordering: .relaxed) && Checkpointer.sync(file, inSlices: inSlices)
            }
            let writer = try Writer(path: path, checkpointer: checkpointer)
            let insert = "INSERT INTO blobs (payload) VALUES (zeroblob(?1))"
            try await writer.write { try $0.run(insert, [.int(300 * 1024)]) }
            let logPages = checkpointer.logPagesAtLastCommit
            try await waitUntil("a round whose sync failed") { checkpointer.current.failedRounds >= 1 }

            for _ in 0..<3 { try await writer.write { try $0.run(insert, [.int(100)]) } }
            #expect(checkpointer.logPagesAtLastCommit > logPages, "the log started over after a failed sync")
            #expect(checkpointer.current.checkpoints == 0)

            failing.store(false, ordering: .relaxed)
            try await Self.expectTheLogStartsOver(writer: writer, checkpointer: checkpointer, path: path)
        }
    }

    /// Small writes until one finds the log started over; then every row is in the file.
    static func expectTheLogStartsOver(writer: Writer, checkpointer: Checkpointer, path: String) async throws {
        try await waitUntil("a later write starts the log over") {
            try await writer.write { try $0.run("INSERT INTO blobs (payload) VALUES (zeroblob(100))") }
            return checkpointer.logPagesAtLastCommit < 64
        }
        #expect(checkpointer.current.checkpoints >= 1)
        await writer.close()
        await checkpointer.close()
        let rows = try SQLiteConnection(path: path).queryFirst("SELECT count(*) FROM blobs", []) { $0.int(0) }
        #expect(rows ?? 0 >= 5)
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

/// Holds the first caller of `pass` until `release`; later callers go through.
private final class HeldOnce: Sendable {
    private let state = Mutex((held: false, released: false))
    private let gate = DispatchSemaphore(value: 0)

    func pass() {
        let hold = state.withLock { state in
            defer { state.held = true }
            return !state.held
        }
        if hold { gate.wait() }
    }

    var isHolding: Bool { state.withLock { $0.held && !$0.released } }

    func release() {
        state.withLock { $0.released = true }
        gate.signal()
    }
}
