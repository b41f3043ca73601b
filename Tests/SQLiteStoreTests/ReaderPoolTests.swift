import Foundation
import SQLiteStore
import Synchronization
import TestSupport
import Testing

/// Readers are taken as they come free: one slow read holds up no more than its own connection.
@Suite struct ReaderPoolTests {
    final class Flag: Sendable { let raised = Atomic<Bool>(false) }

    @Test func readsGoToAFreeReaderWhileAnotherIsHeld() async throws {
        let database = try WriterTests.database()
        // No reads on callers' threads: the held read must block a reader's queue, never a thread
        // of Swift's pool, which the tests running beside this one need.
        let readers = try ReaderPool(path: database.path, count: 2, callerThreadLimit: 0)
        let (holding, gate) = (Flag(), DispatchSemaphore(value: 0))
        let held = Task {
            try await readers.read { _ in
                holding.raised.store(true, ordering: .releasing)
                try wait(for: gate, "the test to release the reader")
            }
        }
        try await waitUntil("a reader to run the holding read") { holding.raised.load(ordering: .acquiring) }
        let done = Flag()
        let others = Task {
            for _ in 0..<10 { _ = try await readers.read { try $0.queryFirst("SELECT 1") { $0.int(0) } } }
            done.raised.store(true, ordering: .releasing)
        }
        let deadline = ContinuousClock.now + .seconds(60)  // reached only when a read waits for the held one
        while !done.raised.load(ordering: .acquiring) && ContinuousClock.now < deadline { await Task.yield() }
        let finishedWhileHeld = done.raised.load(ordering: .acquiring)
        #expect(finishedWhileHeld)
        gate.signal()
        try await held.value("the held read")
        try await others.value("the other reads")
    }

    /// A read runs on its caller's thread when a reader is idle (no hand-off to the reader's
    /// queue and back), and on a queue when none is, or when enough callers read already.
    @Test func aReadRunsOnTheCallersThreadWhenAReaderIsIdle() async throws {
        let database = try WriterTests.database()
        let readers = try ReaderPool(path: database.path, count: 2, callerThreadLimit: 1)
        for _ in 0..<5 { _ = try await readers.read { try $0.queryFirst("SELECT 1") { $0.int(0) } } }
        #expect(readers.statistics.onCallerThread == 5)
        #expect(readers.statistics.queued == 0)

        // A thread of the test's own (not one of Swift's pool, which tests beside this one need)
        // reads and holds its reader: the read runs on that very thread.
        let (holding, gate) = (Flag(), DispatchSemaphore(value: 0))
        let threads = Mutex<(caller: pthread_t?, reader: pthread_t?)>((nil, nil))
        let holder = Thread {
            threads.withLock { $0.caller = pthread_self() }
            readers.submitPreferringCaller { _ in
                threads.withLock { $0.reader = pthread_self() }
                holding.raised.store(true, ordering: .releasing)
                _ = gate.wait(timeout: .now() + 60)
            }
        }
        holder.start()
        try await waitUntil("the holding read to run") { holding.raised.load(ordering: .acquiring) }
        let (caller, reader) = threads.withLock { $0 }
        #expect(caller != nil && reader.map { pthread_equal($0, caller!) != 0 } == true)
        // The limit is reached: the next read goes to the other reader's queue.
        #expect(try await readers.read { try $0.queryFirst("SELECT 2") { $0.int(0) } } == 2)
        #expect(readers.statistics.onCallerThread == 6)
        #expect(readers.statistics.queued == 1)
        gate.signal()

        // None on one core: every read is queued.
        let queuedOnly = try ReaderPool(path: database.path, count: 2, callerThreadLimit: 0)
        _ = try await queuedOnly.read { try $0.queryFirst("SELECT 1") { $0.int(0) } }
        #expect(queuedOnly.statistics.onCallerThread == 0)
        #expect(queuedOnly.statistics.queued == 1)
    }
}
