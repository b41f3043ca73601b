import Foundation
import Metrics
import Store

/// The writer's inbox: callers push from any thread, the writer thread takes batches.
/// Every field is guarded by `condition`'s lock.
final class WriteQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [any WriteJob] = []
    private var closed = false
    private var batches = 0
    private var writes = 0
    private var slowCommits = 0
    private var longestCommit: Duration = .zero
    /// A commit that takes longer than this is counted as slow.
    let slowCommit: Duration
    /// Every commit's time, from `BEGIN` to `COMMIT`'s return: on `/metrics`, the histogram
    /// `coordinatord_commit_seconds`, whose tail is mostly the disk's sync.
    private let commitTimes = Metrics.Timer(label: "coordinatord_commit_seconds")

    init(slowCommit: Duration = .milliseconds(100)) {
        self.slowCommit = slowCommit
    }

    func push(_ job: any WriteJob) {
        condition.lock()
        guard !closed else {
            condition.unlock()
            job.complete(failure: StoreClosed())
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Waits for work and takes up to `max` jobs; nil once closed and drained.
    func take(max: Int) -> [any WriteJob]? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !closed { condition.wait() }
        if jobs.isEmpty { return nil }
        let batch = Array(jobs.prefix(max))
        jobs.removeFirst(batch.count)
        return batch
    }

    /// Marks the queue closed; returns false if it already was.
    func close() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        closed = true
        condition.broadcast()
        return true
    }

    /// Counts a batch of `size` writes committed in `took` (from `BEGIN` to `COMMIT`'s return).
    func recordBatch(size: Int, took: Duration) {
        commitTimes.record(duration: took)
        condition.lock()
        batches += 1
        writes += size
        if took > slowCommit { slowCommits += 1 }
        longestCommit = max(longestCommit, took)
        condition.unlock()
    }

    var statistics: WriterStatistics {
        condition.lock()
        defer { condition.unlock() }
        return WriterStatistics(
            batches: batches, writes: writes, pending: jobs.count, slowCommits: slowCommits, longestCommit: longestCommit)
    }
}

/// What the writer has done so far.
package struct WriterStatistics: Sendable, Equatable {
    /// Transactions committed.
    package let batches: Int
    /// Writes committed (each in its own savepoint of a batch).
    package let writes: Int
    /// Writes queued and not yet taken by the writer thread.
    package let pending: Int
    /// Commits that took longer than the writer's slow-commit threshold (100 ms): every write
    /// queued behind one waited that long, whatever its own cost.
    package let slowCommits: Int
    /// The longest commit so far.
    package let longestCommit: Duration
}
