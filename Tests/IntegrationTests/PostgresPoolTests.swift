import Foundation
@testable import PostgresStore
import Store
import Synchronization
import TestSupport
import Testing

/// The pool runs work waiting for a connection on the connection that frees up, in arrival
/// order, and fails the work still waiting when it closes.
@Suite struct PostgresPoolTests {
    /// One connection, held by a first piece of work: the work queued behind it runs on that same
    /// connection (one backend), in the order it arrived, once the first lets go.
    @Test func waitingWorkRunsInArrivalOrderOnTheConnectionThatFreesUp() async throws {
        let pool = PostgresPool(url: try await Backend.postgresql.newDatabase(), size: 1)
        defer { pool.close() }
        let gate = DispatchSemaphore(value: 0)
        let first = Task {
            try await pool.withConnection { connection in
                try wait(for: gate, "the test lets the first work go")
                return try connection.queryFirst("SELECT pg_backend_pid()") { $0.int(0) } ?? -1
            }
        }
        try await waitUntil("the first work holds the connection") { pool.statistics.inUse == 1 }
        let order = Arrivals()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<4 {
                group.addTask {
                    try await pool.withConnection { connection in
                        order.list.withLock { $0.append(index) }
                        return try connection.queryFirst("SELECT pg_backend_pid()") { $0.int(0) } ?? -1
                    }
                }
                // Each waits before the next is queued: the order of arrival is 0, 1, 2, 3.
                try await waitUntil("work \(index) waits") { pool.statistics.waiting == index + 1 }
            }
            gate.signal()
            let backend = try await first.value
            for try await other in group { #expect(other == backend) }
        }
        #expect(order.list.withLock { $0 } == [0, 1, 2, 3])
        // A caller is resumed once its connection is idle again.
        #expect(pool.statistics.inUse == 0)
        #expect(pool.statistics.open == 1 && pool.statistics.waiting == 0)
    }

    /// Work sent the moment the last was answered finds that work's connection idle: one caller
    /// in turn never makes the pool open a second connection.
    @Test func workInTurnUsesOneConnection() async throws {
        let pool = PostgresPool(url: try await Backend.postgresql.newDatabase(), size: 8)
        defer { pool.close() }
        for _ in 0..<200 {
            _ = try await pool.withConnection { try $0.queryFirst("SELECT 1") { $0.int(0) } }
            #expect(pool.statistics.inUse == 0)
        }
        #expect(pool.statistics.open == 1)
    }

    /// Closing fails the work that waits for a connection (`StoreClosed`); the work running then
    /// finishes, and work that comes later fails at once.
    @Test func closingFailsWaitingWorkAndLetsRunningWorkFinish() async throws {
        let pool = PostgresPool(url: try await Backend.postgresql.newDatabase(), size: 1)
        let gate = DispatchSemaphore(value: 0)
        let running = Task {
            try await pool.withConnection { connection in
                try wait(for: gate, "the test lets the running work go")
                return try connection.queryFirst("SELECT 7") { $0.int(0) }
            }
        }
        try await waitUntil("the first work holds the connection") { pool.statistics.inUse == 1 }
        let waiting = Task { try await pool.withConnection { try $0.queryFirst("SELECT 8") { $0.int(0) } } }
        try await waitUntil("the second work waits") { pool.statistics.waiting == 1 }
        pool.close()
        await #expect(throws: StoreClosed.self) { try await waiting.value }
        gate.signal()
        #expect(try await running.value == 7)
        await #expect(throws: StoreClosed.self) { try await pool.withConnection { _ in 9 } }
        try await waitUntil("the running work's connection is closed") { pool.statistics.open == 0 }
    }
}

/// The order in which work ran.
private final class Arrivals: Sendable {
    let list = Mutex<[Int]>([])
}
