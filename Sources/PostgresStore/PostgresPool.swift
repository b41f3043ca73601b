import DequeModule
import Foundation
import Store
import Synchronization

/// A bounded pool of libpq connections, opened as needed up to `size`.
///
/// Threading: libpq blocks, so connections never run on Swift's cooperative threads. Each
/// pooled connection has its own serial dispatch queue, where the work of the callers it serves
/// runs. Work beyond `size` waits in arrival order, and a connection that finishes one piece of
/// work runs the next waiting one right away, on its own queue: a busy pool does not hand each
/// connection back through a waiting caller's task, which left it idle for a thread hop per
/// event. A connection that broke, or that the server closed while it sat idle, is reconnected
/// before its next use, so the pool recovers by itself once the server is back.
final class PostgresPool: Sendable {
    /// A caller's work: runs on a pool slot's queue (nil once the pool is closed) and returns what
    /// resumes its caller, which runs once the slot is free again: a caller resumed earlier could
    /// send its next work before that, find no idle connection, and open another.
    private typealias Job = @Sendable (PooledConnection?) -> @Sendable () -> Void

    private struct State {
        var idle: [PooledConnection] = []
        var opened = 0
        var waiting: Deque<Job> = []
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
        try await withCheckedThrowingContinuation { continuation in
            submit { pooled in
                guard let pooled else { return { continuation.resume(throwing: StoreClosed()) } }
                let result = Result { try body(pooled.connection(url: self.url)) }
                return { continuation.resume(with: result) }
            }
        }
    }

    /// Runs `body` on a connection of the pool, on that connection's queue, without waiting for it
    /// (a group commit's drainer): with nil when the pool is closed or the connection cannot be
    /// opened. What `body` returns runs once the connection is free again, as a caller of
    /// `withConnection` is resumed: whoever it answers may want a connection at once.
    func run(_ body: @escaping @Sendable (PostgresConnection?) -> @Sendable () -> Void) {
        submit { pooled in body(pooled.flatMap { try? $0.connection(url: self.url) }) }
    }

    /// Connections open now, in use now, and callers waiting for one.
    var statistics: (open: Int, inUse: Int, waiting: Int) {
        state.withLock { ($0.opened, $0.opened - $0.idle.count, $0.waiting.count) }
    }

    /// Closes idle connections now, the others as they finish their work; fails waiting work.
    func close() {
        let waiting = state.withLock { state in
            state.closed = true
            state.idle.removeAll()
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for job in waiting { job(nil)() }
    }

    /// Runs `job` on an idle connection (or a new one, below `size`), else queues it.
    private func submit(_ job: @escaping Job) {
        enum Outcome { case run(PooledConnection), closed, queued }
        let outcome = state.withLock { state -> Outcome in
            if state.closed { return .closed }
            if let pooled = state.idle.popLast() { return .run(pooled) }
            if state.opened < size {
                state.opened += 1
                return .run(PooledConnection(label: "postgres-\(state.opened)"))
            }
            state.waiting.append(job)
            return .queued
        }
        switch outcome {
        case .run(let pooled): pooled.queue.async { self.serve(job, on: pooled) }
        case .closed: job(nil)()
        case .queued: break
        }
    }

    /// On `pooled`'s queue: runs `job`, then the waiting work in turn, until none waits. Each
    /// caller is resumed once the connection has gone to the next work or back to the idle ones.
    private func serve(_ job: @escaping Job, on pooled: PooledConnection) {
        var next: Job? = job
        while let current = next {
            let resumeCaller = current(pooled)
            next = state.withLock { state in
                if state.closed {
                    state.opened -= 1
                    return nil
                }
                if let waiting = state.waiting.popFirst() { return waiting }
                state.idle.append(pooled)
                return nil
            }
            resumeCaller()
        }
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
