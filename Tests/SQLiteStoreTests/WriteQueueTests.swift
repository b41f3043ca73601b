import Foundation
@testable import SQLiteStore
import Synchronization
import TestSupport
import Testing

/// `--gather-commits`: the writer waits for company before a commit only while writes arrive
/// faster than commits take, and a write that completes the company ends the wait. The wait's
/// bound is an hour here, so that a wait that should not happen shows as a test that never ends
/// (caught by the deadline), and one that should is never cut short by the clock.
@Suite struct WriteQueueTests {
    final class NoJob: WriteJob {
        let rerunnable = false
        func perform(_ connection: SQLiteConnection) -> Bool { true }
        func complete(failure: (any Error)?) {}
    }

    /// `take` on a thread of its own (it blocks); the count of the batch it took, once it returns.
    final class Taker: Sendable {
        let taken = Atomic<Int>(-1)
        init(_ queue: WriteQueue) {
            Thread { [self] in taken.store(queue.take(max: 512)?.count ?? 0, ordering: .releasing) }.start()
        }
        func batch() async throws -> Int {
            try await waitUntil("take to return") { taken.load(ordering: .acquiring) >= 0 }
            return taken.load(ordering: .acquiring)
        }
    }

    static func queue(commitsTaking commit: Duration) -> WriteQueue {
        let queue = WriteQueue(gathers: true, longestGather: .seconds(3600))
        // The mean commit, and writes that arrive about as fast as a test pushes them.
        for _ in 0..<16 { queue.recordBatch(size: 1, took: commit) }
        for _ in 0..<16 { queue.push(NoJob()) }
        _ = queue.take(max: 512)
        return queue
    }

    @Test func whileWritesComeFasterThanCommitsTheWriterWaitsForCompany() async throws {
        let queue = Self.queue(commitsTaking: .seconds(86_400))
        queue.push(NoJob())
        let taker = Taker(queue)
        try await waitUntil("the writer to wait for company") { queue.isGathering }
        for _ in 0..<(WriteQueue.gatherTarget - 1) { queue.push(NoJob()) }
        #expect(try await taker.batch() == WriteQueue.gatherTarget)
        #expect(!queue.isGathering)
    }

    @Test func writesSlowerThanCommitsAreTakenAtOnce() async throws {
        // Commits that take no time: every write comes slower than a commit takes.
        let queue = Self.queue(commitsTaking: .zero)
        queue.push(NoJob())
        #expect(try await Taker(queue).batch() == 1)
    }

    @Test func withoutGatheringALoneWriteIsTakenAtOnce() async throws {
        let queue = WriteQueue(gathers: false, longestGather: .seconds(3600))
        for _ in 0..<16 { queue.recordBatch(size: 1, took: .seconds(86_400)) }
        for _ in 0..<16 { queue.push(NoJob()) }
        _ = queue.take(max: 512)
        queue.push(NoJob())
        #expect(try await Taker(queue).batch() == 1)
    }

    @Test func closingEndsAWaitForCompany() async throws {
        let queue = Self.queue(commitsTaking: .seconds(86_400))
        queue.push(NoJob())
        let taker = Taker(queue)
        try await waitUntil("the writer to wait for company") { queue.isGathering }
        #expect(queue.close())
        #expect(try await taker.batch() == 1)
    }
}
