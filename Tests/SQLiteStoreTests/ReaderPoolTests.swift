import Foundation
import SQLiteStore
import Synchronization
import TestSupport
import Testing

/// Readers are taken as they come free: one slow read holds up no more than its own connection,
/// also for a caller that sends its next read the moment its last one is answered (many times over,
/// since the reader used to count as busy for a moment after answering).
@Suite struct ReaderPoolTests {
    final class Flag: Sendable { let raised = Atomic<Bool>(false) }

    @Test func readsGoToAFreeReaderWhileAnotherIsHeld() async throws {
        let database = try WriterTests.database()
        let readers = try ReaderPool(path: database.path, count: 2)
        let (holding, gate) = (Flag(), DispatchSemaphore(value: 0))
        let held = Task {
            try await readers.read { _ in
                holding.raised.store(true, ordering: .releasing)
                // Blocks this reader's own queue, never one of Swift's pool.
                try wait(for: gate, "the test to release the reader")
            }
        }
        try await waitUntil("a reader to run the holding read") { holding.raised.load(ordering: .acquiring) }
        let done = Flag()
        let others = Task {
            for _ in 0..<500 { _ = try await readers.read { try $0.queryFirst("SELECT 1") { $0.int(0) } } }
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
}
