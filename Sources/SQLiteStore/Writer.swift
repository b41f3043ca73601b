import CThreadName
import Foundation
import Store

/// The single writer: one thread owns the only write connection and commits many callers'
/// work in one transaction (group commit).
///
/// A caller's work runs inside its own savepoint: if it throws, only its changes are rolled
/// back and only it gets the error. A batch whose every write is *rerunnable* (work that only
/// stores values it was given, so running it again after a rollback does the same) runs without
/// the savepoints; when one of its writes throws, the batch is rolled back and run again with
/// them, so the outcome is the same and the common batch saves two statements a write.
///
/// The callers of a batch are answered after the batch's `COMMIT` returns (with
/// `synchronous=FULL`, after the fsync), so one fsync serves them all; if the commit fails,
/// every caller of the batch gets the error and nothing of theirs is kept.
/// Before each commit the file is checked to be the one opened (`DatabaseFile`): a batch for a
/// deleted or replaced file is rolled back, so that its callers' `503` is true and the readers
/// (which still see the deleted file) never show it. It is checked again after the commit, for a
/// file deleted meanwhile: that batch is reported as failed, never acknowledged.
/// Work runs on the writer thread and must not wait for anything slow.
package final class Writer: Sendable {
    private let queue: WriteQueue
    private let done = Completion()

    /// Opens the write connection for `path` and starts the writer thread.
    /// `maxPageCount` caps the database file (a storage quota); writes past it fail with `SQLITE_FULL`.
    /// With a `checkpointer`, commits leave the log to it instead of checkpointing themselves.
    /// Commits longer than `slowCommit` are counted (`statistics.slowCommits`).
    /// With `gathers`, a commit waits a little for company while writes arrive faster than
    /// commits take (`WriteQueue.take`).
    package init(
        path: String, file: DatabaseFile? = nil, maxBatch: Int = 512, maxPageCount: Int? = nil,
        checkpointer: Checkpointer? = nil, slowCommit: Duration = .milliseconds(100), gathers: Bool = false
    ) throws {
        queue = WriteQueue(slowCommit: slowCommit, gathers: gathers)
        let writeConnection = try SQLiteConnection(path: path)
        if let maxPageCount { try writeConnection.execute("PRAGMA max_page_count = \(maxPageCount)") }
        checkpointer?.watch(writeConnection)
        let connection = OwnedConnection(connection: writeConnection)
        let queue = self.queue
        let done = self.done
        let thread = Thread {
            coordinatord_name_this_thread("sqlite-writer")
            Writer.run(connection.connection, file: file, queue: queue, maxBatch: maxBatch, checkpointer: checkpointer)
            connection.close()
            done.signal()
        }
        thread.start()
    }

    /// Runs `work` on the write connection in the next group commit and returns its result
    /// once that commit is durable.
    /// With `rerunnable`, `work` may run twice before its commit (see the type's comment): it
    /// must only store what it was given, with no effect outside the connection.
    @discardableResult
    package nonisolated(nonsending) func write<T: Sendable>(
        rerunnable: Bool = false, _ work: @escaping @Sendable (SQLiteConnection) throws -> T
    ) async throws -> T {
        // The result crosses threads as `any Sendable` and is cast back here: a continuation,
        // job and result generic over `T` cost a dozen runtime metadata lookups per write
        // (about 400 instructions each), more than boxing the value and one cast.
        // The job resumes the continuation itself: a closure around a checked continuation was
        // two more objects per write (the closure and the check's), and the check's bookkeeping.
        // The writer completes every job it takes exactly once (`Writer.run`; on close, with
        // `StoreClosed`), which is the whole of the unchecked continuation's contract.
        let result = try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<any Sendable, any Error>) in
            queue.push(PendingWrite(work: { try work($0) }, rerunnable: rerunnable, answer: .resume(continuation)))
        }
        return result as! T
    }

    /// Queues `work` for the next group commit; `then` gets its result once that commit is
    /// durable (or the failure). For a caller that is not async (a reader handing its result on).
    package func enqueue(
        _ work: @escaping @Sendable (SQLiteConnection) throws -> any Sendable, rerunnable: Bool = false,
        then answer: @escaping @Sendable (Result<any Sendable, any Error>) -> Void
    ) {
        queue.push(PendingWrite(work: work, rerunnable: rerunnable, answer: .call(answer)))
    }

    /// Commits what is queued, stops the thread and closes the connection. Later writes fail.
    package func close() async {
        _ = queue.close()
        await done.wait()
    }

    /// Batches committed, writes done and writes waiting, for the benchmark, metrics and tests.
    package var statistics: WriterStatistics { queue.statistics }

    private static func run(
        _ connection: SQLiteConnection, file: DatabaseFile?, queue: WriteQueue, maxBatch: Int, checkpointer: Checkpointer?
    ) {
        while let batch = queue.take(max: maxBatch) {
            let started = ContinuousClock.now
            do {
                // Prepared once and reused: these run for every write.
                try connection.run("BEGIN IMMEDIATE")
                if batch.count == 1 {
                    // Alone, the work's transaction is its savepoint: when the work threw, nothing
                    // else is in it to keep. (Below half the writer's rate most batches are one
                    // write, and the two statements of a savepoint were a fifth of its time.)
                    guard batch[0].perform(connection) else {
                        try connection.run("ROLLBACK")
                        queue.recordBatch(size: 1, took: ContinuousClock.now - started)
                        batch[0].complete(failure: nil)
                        continue
                    }
                } else if try !batch.allSatisfy(\.rerunnable) || !performAll(batch, connection) {
                    for job in batch {
                        try connection.run("SAVEPOINT write")
                        let ok = job.perform(connection)
                        if !ok { try connection.run("ROLLBACK TO write") }
                        try connection.run("RELEASE write")
                    }
                }
                try file?.checkStillInPlace()
                try connection.run("COMMIT")
                try file?.checkStillInPlace()
            } catch {
                try? connection.execute("ROLLBACK")
                for job in batch { job.complete(failure: error) }
                continue
            }
            // Counted before the callers resume, so that what they read next includes their commit.
            queue.recordBatch(size: batch.count, took: ContinuousClock.now - started)
            for job in batch { job.complete(failure: nil) }
            checkpointer?.finishOnWriter(connection)
        }
    }

    /// Runs the rerunnable `batch` without savepoints, in the transaction begun. When a write
    /// throws, rolls everything back and begins again, and returns false: the caller runs the
    /// batch again, each write in its savepoint.
    private static func performAll(_ batch: [any WriteJob], _ connection: SQLiteConnection) throws -> Bool {
        for job in batch where !job.perform(connection) {
            // SQLite may have rolled back already (a full disk, say): then this finds no transaction.
            try? connection.run("ROLLBACK")
            try connection.run("BEGIN IMMEDIATE")
            return false
        }
        return true
    }
}

/// A connection on its way to the thread that is its only user afterwards.
final class OwnedConnection: @unchecked Sendable {
    private(set) var connection: SQLiteConnection!
    init(connection: SQLiteConnection) { self.connection = connection }
    func close() { connection = nil }
}

/// One caller's work and the continuation to answer it.
protocol WriteJob: AnyObject, Sendable {
    /// The work only stores what it was given: it may run again after a rollback.
    var rerunnable: Bool { get }
    /// Runs the work; false if it threw (its savepoint is then rolled back).
    func perform(_ connection: SQLiteConnection) -> Bool
    /// Answers the caller: with the work's outcome, or with `failure` if the commit failed.
    func complete(failure: (any Error)?)
}

/// Its result is written by the writer thread before `complete` resumes the caller; nothing else touches it.
final class PendingWrite: WriteJob, @unchecked Sendable {
    /// Where the outcome goes: a callback, or the writing task's continuation.
    enum Answer {
        case call(@Sendable (Result<any Sendable, any Error>) -> Void)
        case resume(UnsafeContinuation<any Sendable, any Error>)
    }

    private let work: @Sendable (SQLiteConnection) throws -> any Sendable
    private let answer: Answer
    private var result: Result<any Sendable, any Error>?
    let rerunnable: Bool

    init(work: @escaping @Sendable (SQLiteConnection) throws -> any Sendable, rerunnable: Bool, answer: Answer) {
        self.work = work
        self.rerunnable = rerunnable
        self.answer = answer
    }

    func perform(_ connection: SQLiteConnection) -> Bool {
        do {
            result = .success(try work(connection))
            return true
        } catch {
            result = .failure(error)
            return false
        }
    }

    func complete(failure: (any Error)?) {
        let outcome: Result<any Sendable, any Error>
        switch (result, failure) {
        case (.success?, let failure?): outcome = .failure(failure)  // done, but not committed
        case (let result?, _): outcome = result
        case (nil, let failure): outcome = .failure(failure ?? StoreClosed())
        }
        switch answer {
        case .call(let call): call(outcome)
        case .resume(let continuation): continuation.resume(with: outcome)
        }
    }
}
