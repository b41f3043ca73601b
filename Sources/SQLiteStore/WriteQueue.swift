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

    /// Gathering: the mean time between writes (none before the second write) and the mean
    /// commit, in nanoseconds (moving averages over about 8), and while the writer waits for
    /// company, how many writes it waits for.
    private var lastArrival: UInt64 = 0
    private var meanGap: UInt64?
    private var meanCommit: UInt64 = 0
    private var gatheringFor = 0
    private let gathers: Bool
    private let longestGather: UInt64

    /// With `gathers`, `take` may wait for company, up to half a commit and at most `longestGather`.
    init(slowCommit: Duration = .milliseconds(100), gathers: Bool = false, longestGather: Duration = .microseconds(250)) {
        self.slowCommit = slowCommit
        self.gathers = gathers
        self.longestGather = Self.nanoseconds(longestGather)
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    func push(_ job: any WriteJob) {
        condition.lock()
        guard !closed else {
            condition.unlock()
            job.complete(failure: StoreClosed())
            return
        }
        jobs.append(job)
        // The arrival clock only where it is used: without gathering, a push reads no clock.
        if gathers {
            let now = DispatchTime.now().uptimeNanoseconds
            if lastArrival != 0 {
                let gap = now &- lastArrival
                meanGap = meanGap.map { $0 - $0 / 8 + gap / 8 } ?? gap
            }
            lastArrival = now
        }
        // A writer gathering company is woken once there is enough of it (or by its deadline).
        if gatheringFor == 0 || jobs.count >= gatheringFor { condition.signal() }
        condition.unlock()
    }

    /// A commit waits for company only while it would have it: writes arriving faster than a
    /// commit takes. Then a lone write would commit, and the next ones, arriving during its
    /// sync, wait for the commit after it anyway; waiting up to half a commit for them first
    /// costs the first write that much and saves a sync (mostly kernel and disk work) per write
    /// gathered. A lone client, whose writes come a whole answer apart, never waits.
    static let gatherTarget = 4

    /// Waits for work and takes up to `max` jobs; nil once closed and drained.
    func take(max: Int) -> [any WriteJob]? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !closed { condition.wait() }
        if jobs.isEmpty { return nil }
        if gathers, jobs.count < Self.gatherTarget, let meanGap, meanGap < meanCommit {
            let wait = min(meanCommit / 2, longestGather)
            let deadline = Date(timeIntervalSinceNow: Double(wait) / 1e9)
            gatheringFor = Self.gatherTarget
            while jobs.count < gatheringFor && !closed && condition.wait(until: deadline) {}
            gatheringFor = 0
        }
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
        let nanoseconds = Self.nanoseconds(took)
        condition.lock()
        meanCommit = meanCommit - meanCommit / 8 + nanoseconds / 8
        batches += 1
        writes += size
        if took > slowCommit { slowCommits += 1 }
        longestCommit = max(longestCommit, took)
        condition.unlock()
    }

    /// The writer is waiting for company before a commit (for tests).
    var isGathering: Bool {
        condition.lock()
        defer { condition.unlock() }
        return gatheringFor > 0
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
