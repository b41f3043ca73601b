import CSQLite
import Foundation
@testable import SQLiteStore
import Store
import Synchronization
import TestSupport
import Testing

@Suite struct WriterTests {
    static func database(path: String = MigratorTests.temporaryPath(), maxPageCount: Int? = nil) throws -> SQLiteDatabase {
        try SQLiteDatabase(
            path: path,
            migrations: [Migration(version: 1, name: "items", sql: "CREATE TABLE items (name TEXT PRIMARY KEY)")],
            maxPageCount: maxPageCount)
    }

    /// Occupies the writer thread until `release`, so that what is queued meanwhile is taken as
    /// one batch afterwards: batching asserted exactly, not by timing.
    final class HeldWriter: Sendable {
        final class Flag: Sendable { let raised = Atomic<Bool>(false) }
        private let started = Flag()
        private let gate = DispatchSemaphore(value: 0)
        private let job: Task<Void, any Error>

        private init(_ database: SQLiteDatabase) {
            let (started, gate) = (started, gate)
            job = Task {
                _ = try await database.writer.write { _ in
                    started.raised.store(true, ordering: .releasing)
                    // Blocks the writer's own thread, never one of Swift's pool.
                    try wait(for: gate, "the test to release the writer")
                }
            }
        }

        /// Returns once the writer thread runs the holding write.
        static func hold(_ database: SQLiteDatabase) async throws -> HeldWriter {
            let held = HeldWriter(database)
            try await waitUntil("the writer to run the holding write") { held.started.raised.load(ordering: .acquiring) }
            return held
        }

        func release() async throws {
            gate.signal()
            try await job.value("the holding write")
        }
    }

    /// Writes queued from the calling thread through `enqueue`, so that they are all in the queue
    /// when `init` returns: not from tasks, which a pool busy with other tests may start late (a
    /// run on 2 loaded cores once took more than 60 s to queue fifty).
    final class QueuedWrites: Sendable {
        private let answers: Mutex<[Result<any Sendable, any Error>?]>

        init(
            _ database: SQLiteDatabase, rerunnable: Bool = false, _ works: [@Sendable (SQLiteConnection) throws -> any Sendable]
        ) {
            answers = Mutex(Array(repeating: nil, count: works.count))
            for (index, work) in works.enumerated() {
                database.writer.enqueue(work, rerunnable: rerunnable) { [self] result in answers.withLock { $0[index] = result } }
            }
        }

        /// Every write's outcome, in the order queued, once all are answered.
        func outcomes() async throws -> [Result<any Sendable, any Error>] {
            try await waitUntil("the queued writes to be answered") { answers.withLock { !$0.contains { $0 == nil } } }
            return answers.withLock { $0.map { $0! } }
        }
    }

    /// Commits longer than the writer's threshold are counted as slow, and the longest is kept: a
    /// stall every write behind it waits out. Thresholds at both ends make it exact without waiting
    /// for time to pass: every commit takes longer than zero, none takes an hour.
    @Test func commitsOverTheThresholdAreCountedAsSlow() async throws {
        let path = MigratorTests.temporaryPath()
        try SQLiteConnection(path: path).execute("CREATE TABLE items (name TEXT)")
        for (threshold, slow) in [(Duration.zero, 3), (.seconds(3600), 0)] {
            let writer = try Writer(path: path, slowCommit: threshold)
            for index in 0..<3 {
                try await writer.write { try $0.run("INSERT INTO items (name) VALUES (?1)", [.text("\(index)")]) }
            }
            let statistics = writer.statistics
            #expect(statistics.batches == 3)
            #expect(statistics.slowCommits == slow)
            #expect(statistics.longestCommit > .zero)
            await writer.close()
        }
    }

    /// The metrics report the writer's slow commits and its longest commit as its statistics hold them.
    @Test func theMetricsReportTheSlowCommitsAndTheLongest() async throws {
        let database = try Self.database()
        try await database.writer.write { try $0.run("INSERT INTO items (name) VALUES ('a')") }
        let statistics = database.writer.statistics
        let metrics = Dictionary(uniqueKeysWithValues: database.metrics().map { ($0.name, $0.value) })
        #expect(metrics["coordinatord_slow_commits_total"] == Double(statistics.slowCommits))
        #expect(metrics["coordinatord_longest_commit_seconds"] == statistics.longestCommit / .seconds(1))
        #expect(statistics.longestCommit > .zero)
        await database.close()
    }

    @Test func writesQueuedWhileTheWriterIsBusyCommitTogetherInOneBatch() async throws {
        let database = try Self.database()
        let held = try await HeldWriter.hold(database)
        let writes = QueuedWrites(
            database,
            (0..<50).map { index in { try $0.run("INSERT INTO items (name) VALUES (?1)", [.text("i\(index)")]) } })
        #expect(database.writer.statistics.pending == 50)
        try await held.release()
        for outcome in try await writes.outcomes() { _ = try outcome.get() }
        let count = try await database.readers.read { try $0.queryFirst("SELECT count(*) FROM items") { $0.int(0) } }
        #expect(count == 50)
        // The held write was one batch; all fifty waiting ones were the next.
        let statistics = database.writer.statistics
        #expect(statistics.batches == 2)
        #expect(statistics.writes == 51)
        await database.close()
    }

    /// Rerunnable or not (a rerunnable batch runs without savepoints, and again with them when a
    /// write throws), the bad write leaves nothing and the good one is kept.
    @Test(arguments: [false, true])
    func aFailingWriteRollsBackOnlyItselfInASharedBatch(rerunnable: Bool) async throws {
        let database = try Self.database()
        _ = try await database.writer.write { try $0.run("INSERT INTO items (name) VALUES ('taken')") }
        let held = try await HeldWriter.hold(database)
        let runs = Atomic<Int>(0)
        let writes = QueuedWrites(
            database, rerunnable: rerunnable,
            [
                {
                    runs.add(1, ordering: .relaxed)
                    return try $0.run("INSERT INTO items (name) VALUES ('fresh')")
                },
                { connection in
                    try connection.run("INSERT INTO items (name) VALUES ('half')")
                    return try connection.run("INSERT INTO items (name) VALUES ('taken')")
                },
            ])
        try await held.release()
        let outcomes = try await writes.outcomes()
        #expect(try outcomes[0].get() as? Int == 1)
        #expect(throws: SQLiteError.self) { try outcomes[1].get() }
        let names = try await database.readers.read { try $0.query("SELECT name FROM items ORDER BY name") { $0.string(0) } }
        #expect(names == ["fresh", "taken"])
        // The good and the bad write shared one batch (after the first write and the held one);
        // rerunnable, the good one ran again, in its savepoint, once the bad one threw.
        #expect(database.writer.statistics.batches == 3)
        #expect(runs.load(ordering: .relaxed) == (rerunnable ? 2 : 1))
        await database.close()
    }

    /// A batch of rerunnable writes that all succeed runs each once, in one transaction.
    @Test func aBatchOfRerunnableWritesRunsEachOnce() async throws {
        let database = try Self.database()
        let held = try await HeldWriter.hold(database)
        let runs = Atomic<Int>(0)
        let writes = QueuedWrites(
            database, rerunnable: true,
            (0..<5).map { index in
                { connection in
                    runs.add(1, ordering: .relaxed)
                    return try connection.run("INSERT INTO items (name) VALUES (?1)", [.text("r\(index)")])
                }
            })
        try await held.release()
        for outcome in try await writes.outcomes() { #expect(try outcome.get() as? Int == 1) }
        #expect(runs.load(ordering: .relaxed) == 5)
        let count = try await database.readers.read { try $0.queryFirst("SELECT count(*) FROM items") { $0.int(0) } }
        #expect(count == 5)
        #expect(database.writer.statistics.batches == 2)
        await database.close()
    }

    @Test func writesAfterCloseFail() async throws {
        let database = try Self.database()
        await database.close()
        await #expect(throws: StoreClosed.self) {
            _ = try await database.writer.write { try $0.run("INSERT INTO items (name) VALUES ('late')") }
        }
    }

    @Test func healthCheckAnswersAndLeavesNothingBehind() async throws {
        let database = try Self.database()
        #expect(await database.healthProblem() == nil)
        let probes = try await database.readers.read { try $0.queryFirst("SELECT count(*) FROM health_probe") { $0.int(0) } }
        #expect(probes == 0)
        await database.close()
    }

    @Test func healthReportsADatabaseThatCannotGrow() async throws {
        let path = MigratorTests.temporaryPath()
        let database = try Self.database(path: path, maxPageCount: 8)
        // Fill the quota.
        var filled = false
        for index in 0..<64 where !filled {
            do {
                _ = try await database.writer.write {
                    try $0.run("INSERT INTO items (name) VALUES (?1)", [.text("\(index)" + String(repeating: "x", count: 2000))])
                }
            } catch {
                filled = true
            }
        }
        #expect(filled)
        let problem = await database.healthProblem()
        #expect(problem?.contains("does not take writes") == true)
        await database.close()
    }

    /// A refused write is rolled back, not committed to the deleted file: the readers, which still
    /// read that file, never see it; and reads through the store are refused too.
    @Test func aDeletedDatabaseFileFailsWritesInsteadOfAcknowledgingThem() async throws {
        let path = MigratorTests.temporaryPath()
        let database = try Self.database(path: path)
        _ = try await database.writer.write { try $0.run("INSERT INTO items (name) VALUES ('kept')") }
        try FileManager.default.removeItem(atPath: path)
        await #expect(throws: DatabaseFileReplaced.self) {
            _ = try await database.writer.write { try $0.run("INSERT INTO items (name) VALUES ('lost')") }
        }
        let names = try await database.readers.read { try $0.query("SELECT name FROM items") { $0.string(0) } }
        #expect(names == ["kept"])
        await #expect(throws: DatabaseFileReplaced.self) {
            try await database.read { try $0.query("SELECT name FROM items") { $0.string(0) } }
        }
        #expect(await database.healthProblem() == "the database file was deleted or replaced")
        await database.close()
    }

    /// The file deleted during the commit, after the check before it: the batch landed in the
    /// deleted file, so it is reported as failed, and the store's reads, which would see it there,
    /// are refused.
    @Test func aFileDeletedDuringTheCommitFailsItsBatchAndIsNeverReadFrom() async throws {
        let path = MigratorTests.temporaryPath()
        let database = try Self.database(path: path)
        let pathCopy = strdup(path)!
        defer { free(pathCopy) }
        let address = UInt(bitPattern: pathCopy)  // the hook's context; an integer is Sendable
        await #expect(throws: DatabaseFileReplaced.self) {
            _ = try await database.writer.write { connection in
                try connection.run("INSERT INTO items (name) VALUES ('landed in the deleted file')")
                // Runs inside COMMIT: the file goes after the writer's check and before the commit ends.
                sqlite3_commit_hook(connection.handle, { context in
                    unlink(context!.assumingMemoryBound(to: CChar.self))
                    return 0
                }, UnsafeMutableRawPointer(bitPattern: address))
            }
        }
        let seenInTheDeletedFile = try await database.readers.read { try $0.query("SELECT name FROM items") { $0.string(0) } }
        #expect(seenInTheDeletedFile == ["landed in the deleted file"])
        await #expect(throws: DatabaseFileReplaced.self) {
            try await database.read { try $0.query("SELECT name FROM items") { $0.string(0) } }
        }
        await database.close()
    }

    @Test func aSecondProcessOnTheSameFileIsRefused() async throws {
        let path = MigratorTests.temporaryPath()
        let first = try Self.database(path: path)
        #expect(throws: DatabaseInUse.self) { _ = try Self.database(path: path) }
        await first.close()
    }

    @Test func textWithANulByteIsStoredWhole() async throws {
        let database = try Self.database()
        let name = "victim@example.com\u{0}n"
        _ = try await database.writer.write { try $0.run("INSERT INTO items (name) VALUES (?1)", [.text(name)]) }
        let stored = try await database.readers.read { try $0.queryFirst("SELECT name FROM items") { $0.string(0) } }
        #expect(stored == name)
        let byBytes = try await database.readers.read {
            try $0.queryFirst("SELECT length(CAST(name AS BLOB)) FROM items") { $0.int(0) }
        }
        #expect(byBytes == name.utf8.count)
        await database.close()
    }
}
