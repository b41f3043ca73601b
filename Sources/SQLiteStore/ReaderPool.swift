import DequeModule
import Foundation
import Store
import Synchronization

/// Read-only connections, each owned by its own serial queue. A read takes an idle one; when all
/// are busy, callers wait (suspended, not blocking) in arrival order, so that one slow read holds
/// up no more than its own connection. In WAL mode readers never block the writer nor each other.
package final class ReaderPool: Sendable {
    private struct State {
        var idle: [Reader]
        var waiters: Deque<CheckedContinuation<Reader, Never>> = []
    }

    private let state: Mutex<State>

    package init(path: String, count: Int = 2) throws {
        let readers = try (0..<max(1, count)).map { index in
            Reader(connection: try SQLiteConnection(path: path, readOnly: true), label: "sqlite-reader-\(index)")
        }
        state = Mutex(State(idle: readers))
    }

    /// Runs `work` on a reader connection off the caller's thread.
    package func read<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        let reader = await checkOut()
        defer { checkIn(reader) }
        return try await withCheckedThrowingContinuation { continuation in
            reader.queue.async {
                continuation.resume(with: Result { try work(reader.connection) })
            }
        }
    }

    private func checkOut() async -> Reader {
        if let reader = state.withLock({ $0.idle.popLast() }) { return reader }
        return await withCheckedContinuation { continuation in
            // One may have come back meanwhile.
            let reader = state.withLock { state -> Reader? in
                if let reader = state.idle.popLast() { return reader }
                state.waiters.append(continuation)
                return nil
            }
            if let reader { continuation.resume(returning: reader) }
        }
    }

    private func checkIn(_ reader: Reader) {
        let waiter = state.withLock { state -> CheckedContinuation<Reader, Never>? in
            guard let waiter = state.waiters.popFirst() else {
                state.idle.append(reader)
                return nil
            }
            return waiter
        }
        waiter?.resume(returning: reader)
    }
}

extension ReaderPool {
    /// Runs `work` in a read transaction on a reader connection, off the caller's thread; see
    /// `Store.attemptReadOnly`. Nil when the transaction cannot begin.
    package func attempt<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws
        -> ReadOnlyAttempt<T>?
    {
        try await read { connection -> ReadOnlyAttempt<T>? in
            guard (try? connection.run("BEGIN")) != nil else { return nil }
            defer { _ = try? connection.run("COMMIT") }
            let guarded = ReadOnlyConnection(connection)
            do {
                let result = try work(guarded)
                return guarded.triedToWrite ? .needsWriter : .completed(result)
            } catch {
                if guarded.triedToWrite { return .needsWriter }
                throw error
            }
        }
    }
}

/// A connection and the serial queue that is its only user.
private final class Reader: @unchecked Sendable {
    let connection: SQLiteConnection
    let queue: DispatchQueue

    init(connection: SQLiteConnection, label: String) {
        self.connection = connection
        self.queue = DispatchQueue(label: label)
    }
}
