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
                // Blocks this reader's own queue, never one of Swift's pool; for longer than the
                // test waits for the other reads, so that a failure names them.
                try wait(for: gate, "the test to release the reader", seconds: 3 * defaultDeadlineSeconds)
            }
        }
        try await waitUntil("a reader to run the holding read") { holding.raised.load(ordering: .acquiring) }
        // From a thread of its own, each read sent the moment the last is answered: Swift's pool,
        // which every other test of a parallel run shares, takes no part in it.
        let others = Task {
            try await TestHTTP.offPool {
                let answered = DispatchSemaphore(value: 0)
                for _ in 0..<500 {
                    readers.submit { connection in
                        _ = try? connection.queryFirst("SELECT 1") { $0.int(0) }
                        return { answered.signal() }
                    }
                    try wait(for: answered, "a read while another read holds its reader")
                }
            }
        }
        do {
            try await others.value("the other reads, while one read holds its reader")
        } catch {
            gate.signal()
            throw error
        }
        gate.signal()
        try await held.value("the held read")
    }
}
