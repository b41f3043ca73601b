import Foundation
import Store
import Synchronization

/// Read-only connections, each owned by its own serial queue. A read joins the shortest queue, so
/// that a slow read holds up only what was already queued behind it, never what comes after, while
/// another reader is free. In WAL mode readers never block the writer nor each other.
///
/// A read may also run on the caller's own thread (`submitPreferringCaller`) when a reader is
/// idle: a navigation event's flow reads a few resident pages, and handing it to a queue and back
/// cost two thread switches, more than the read. At most `callerThreadLimit` callers do so at
/// once, so that reads never occupy every thread of Swift's cooperative pool.
package final class ReaderPool: Sendable {
    private let readers: [Reader]
    private let callerThreadLimit: Int
    private let onCallerThreads = Atomic<Int>(0)
    private let ranOnCallerThread = Atomic<Int>(0)
    private let ranOnQueue = Atomic<Int>(0)

    /// - Parameter callerThreadLimit: how many callers may read on their own thread at once; by
    ///   default one fewer than the cores (Swift's pool has a thread per core), so none on one core.
    package init(
        path: String, count: Int = 2,
        callerThreadLimit: Int = ProcessInfo.processInfo.activeProcessorCount - 1
    ) throws {
        readers = try (0..<max(1, count)).map { index in
            Reader(connection: try SQLiteConnection(path: path, readOnly: true), label: "sqlite-reader-\(index)")
        }
        self.callerThreadLimit = callerThreadLimit
    }

    /// Runs `work` on a reader connection: on the caller's thread when a reader is idle (see
    /// above), otherwise on a reader's queue.
    package func read<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submitPreferringCaller { connection in continuation.resume(with: Result { try work(connection) }) }
        }
    }

    /// Runs `body` on a reader's queue with its connection.
    package func submit(_ body: @escaping @Sendable (SQLiteConnection) -> Void) {
        let reader = readers.min { $0.queued.load(ordering: .relaxed) < $1.queued.load(ordering: .relaxed) }!
        reader.queued.add(1, ordering: .relaxed)
        ranOnQueue.add(1, ordering: .relaxed)
        reader.queue.async {
            reader.use(body)
            reader.queued.subtract(1, ordering: .relaxed)  // counts the running read too
        }
    }

    /// Runs `body` at once on the calling thread with an idle reader's connection, when one is
    /// idle and fewer than `callerThreadLimit` callers do so now; otherwise as `submit` does.
    package func submitPreferringCaller(_ body: @escaping @Sendable (SQLiteConnection) -> Void) {
        if onCallerThreads.add(1, ordering: .acquiring).newValue <= callerThreadLimit {
            defer { onCallerThreads.subtract(1, ordering: .releasing) }
            for reader in readers where reader.queued.load(ordering: .relaxed) == 0 {
                // Counted as queued meanwhile, so that `submit` prefers the other readers.
                reader.queued.add(1, ordering: .relaxed)
                defer { reader.queued.subtract(1, ordering: .relaxed) }
                let ran = reader.useIfIdle { connection in
                    ranOnCallerThread.add(1, ordering: .relaxed)
                    body(connection)
                }
                if ran { return }
            }
        } else {
            onCallerThreads.subtract(1, ordering: .releasing)
        }
        submit(body)
    }

    /// Reads run so far on their caller's thread, and on a reader's queue.
    package var statistics: (onCallerThread: Int, queued: Int) {
        (ranOnCallerThread.load(ordering: .relaxed), ranOnQueue.load(ordering: .relaxed))
    }
}

extension ReaderPool {
    /// Runs `work` in a read transaction on `connection`, refusing its writes; see
    /// `Store.attemptReadOnly`. Nil when the transaction cannot begin.
    static func attempt<T>(_ work: (any SQLConnection) throws -> T, on connection: SQLiteConnection) throws
        -> ReadOnlyAttempt<T>?
    {
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

/// A connection, the serial queue that is its usual user, how many reads are queued or running
/// on it, and the lock that keeps a caller's thread and the queue from using it at once.
private final class Reader: Sendable {
    private let connection: UncheckedConnection
    let queue: DispatchQueue
    let queued = Atomic<Int>(0)
    private let inUse = Mutex(())

    init(connection: SQLiteConnection, label: String) {
        self.connection = UncheckedConnection(connection: connection)
        self.queue = DispatchQueue(label: label)
    }

    /// Runs `body` with the connection, waiting for a caller's thread that has it.
    func use(_ body: (SQLiteConnection) -> Void) {
        inUse.withLock { _ in body(connection.connection) }
    }

    /// Runs `body` with the connection if nobody has it now; false (and nothing run) otherwise.
    func useIfIdle(_ body: (SQLiteConnection) -> Void) -> Bool {
        inUse.withLockIfAvailable { _ in body(connection.connection) } != nil
    }
}

/// The connection is only ever used under `Reader.inUse`, which serializes every call on it.
private struct UncheckedConnection: @unchecked Sendable {
    let connection: SQLiteConnection
}
