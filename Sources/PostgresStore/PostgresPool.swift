import DequeModule
import Foundation
import Store
import Synchronization

/// A bounded pool of libpq connections, opened as needed up to `size`.
///
/// Threading: libpq blocks, so connections never run on Swift's cooperative threads. Each
/// pooled connection has its own serial dispatch queue, and a caller that checked a connection
/// out runs its work there; callers beyond `size` wait (suspended, not blocking) in arrival order.
/// A connection that broke, or that the server closed while it sat idle, is reconnected before
/// its next use, so the pool recovers by itself once the server is back.
final class PostgresPool: Sendable {
    private struct State {
        var idle: [PooledConnection] = []
        var opened = 0
        var waiters: Deque<CheckedContinuation<PooledConnection?, Never>> = []
        var closed = false
    }

    let url: String
    let size: Int
    private let state = Mutex(State())

    init(url: String, size: Int) {
        self.url = url
        self.size = max(1, size)
    }

    /// Runs `body` on a connection of the pool, on that connection's queue, reconnecting it first
    /// if it broke. Throws `StoreClosed` once the pool is closed.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        guard let pooled = await checkOut() else { throw StoreClosed() }
        defer { checkIn(pooled) }
        return try await withCheckedThrowingContinuation { continuation in
            pooled.queue.async {
                continuation.resume(with: Result { try body(pooled.connection(url: self.url)) })
            }
        }
    }

    /// Connections open now, in use now, and callers waiting for one.
    var statistics: (open: Int, inUse: Int, waiting: Int) {
        state.withLock { ($0.opened, $0.opened - $0.idle.count, $0.waiters.count) }
    }

    /// Closes idle connections now, the others as they come back; wakes waiters with nothing.
    func close() {
        let waiters = state.withLock { state in
            state.closed = true
            state.idle.removeAll()
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    private func checkOut() async -> PooledConnection? {
        await withCheckedContinuation { continuation in
            enum Outcome { case ready(PooledConnection), closed, waiting }
            let outcome = state.withLock { state -> Outcome in
                if state.closed { return .closed }
                if let pooled = state.idle.popLast() { return .ready(pooled) }
                if state.opened < size {
                    state.opened += 1
                    return .ready(PooledConnection(label: "postgres-\(state.opened)"))
                }
                state.waiters.append(continuation)
                return .waiting
            }
            switch outcome {
            case .ready(let pooled): continuation.resume(returning: pooled)
            case .closed: continuation.resume(returning: nil)
            case .waiting: break
            }
        }
    }

    private func checkIn(_ pooled: PooledConnection) {
        let waiter: CheckedContinuation<PooledConnection?, Never>? = state.withLock { state in
            if state.closed {
                state.opened -= 1
                return nil
            }
            if let waiter = state.waiters.popFirst() { return waiter }
            state.idle.append(pooled)
            return nil
        }
        waiter?.resume(returning: pooled)
    }
}

/// A pool slot: its queue, and the connection that only that queue touches (opened on first use).
/// `@unchecked Sendable`: `current` is read and written only on `queue`.
private final class PooledConnection: @unchecked Sendable {
    let queue: DispatchQueue
    private var current: PostgresConnection?

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// The open connection, connecting or reconnecting first if needed (also when the server
    /// closed it while it sat here: terminated, restarted, or idle too long). Runs on `queue`.
    func connection(url: String) throws -> PostgresConnection {
        if let current, current.isHealthy, !current.closedByServer { return current }
        // (`reconnect` starts a new session whether or not libpq has seen the old one end.)
        if let current {
            try current.reconnect()
            return current
        }
        let connection = try PostgresConnection(url: url)
        current = connection
        return connection
    }
}
