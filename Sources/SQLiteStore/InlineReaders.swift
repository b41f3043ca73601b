import Store
import Synchronization

/// Read-only connections lent to work that runs on its caller's own thread (`attemptReadOnly`),
/// where a hop to a reader's queue would cost more than the work. A connection is opened when none
/// is free, up to `limit`; past it, and when one cannot be opened, the caller uses the writer.
package final class InlineReaders: Sendable {
    private let path: String
    private let limit: Int
    private let state = Mutex(Pool())

    private struct Pool {
        var idle: [LentConnection] = []
        var opened = 0
    }

    package init(path: String, limit: Int = 8) {
        self.path = path
        self.limit = limit
    }

    /// Runs `work` in a read transaction on a lent connection; see `Store.attemptReadOnly`.
    package func attempt<T>(_ work: (any SQLConnection) throws -> T) throws -> ReadOnlyAttempt<T>? {
        guard let lent = checkOut() else { return nil }
        defer { checkIn(lent) }
        let connection = lent.connection
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

    private func checkOut() -> LentConnection? {
        let grant: Grant = state.withLock { pool in
            if let idle = pool.idle.popLast() { return .idle(idle) }
            guard pool.opened < limit else { return .none }
            pool.opened += 1
            return .openNew
        }
        switch grant {
        case .idle(let lent): return lent
        case .none: return nil
        case .openNew:
            // Opened outside the lock; a failure gives the slot back.
            guard let connection = try? SQLiteConnection(path: path, readOnly: true) else {
                state.withLock { $0.opened -= 1 }
                return nil
            }
            return LentConnection(connection)
        }
    }

    private enum Grant {
        case idle(LentConnection)
        case openNew
        case none
    }

    private func checkIn(_ lent: LentConnection) {
        state.withLock { $0.idle.append(lent) }
    }
}

/// `@unchecked Sendable`: its connection is used by one thread at a time, the one it is lent to
/// between check-out and check-in.
private final class LentConnection: @unchecked Sendable {
    let connection: SQLiteConnection
    init(_ connection: SQLiteConnection) { self.connection = connection }
}
