import Foundation
import Store
import Synchronization

/// Read-only connections, each owned by its own serial queue. A read joins the shortest queue, so
/// that a slow read holds up only what was already queued behind it, never what comes after, while
/// another reader is free. In WAL mode readers never block the writer nor each other.
package final class ReaderPool: Sendable {
    private let readers: [Reader]

    package init(path: String, count: Int = 2) throws {
        readers = try (0..<max(1, count)).map { index in
            Reader(connection: try SQLiteConnection(path: path, readOnly: true), label: "sqlite-reader-\(index)")
        }
    }

    /// Runs `work` on a reader connection off the caller's thread.
    package func read<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { connection in
                let result = Result { try work(connection) }
                return { continuation.resume(with: result) }
            }
        }
    }

    /// Runs `body` on a reader's queue with its connection, then what `body` returns (which hands
    /// the result on) once the reader counts as free again: a caller resumed earlier could send its
    /// next read before that, find both readers equally busy, and queue it behind a slow read.
    package func submit(_ body: @escaping @Sendable (SQLiteConnection) -> @Sendable () -> Void) {
        let reader = readers.min { $0.queued.load(ordering: .acquiring) < $1.queued.load(ordering: .acquiring) }!
        reader.queued.add(1, ordering: .relaxed)
        reader.queue.async {
            let handOn = body(reader.connection)
            reader.queued.subtract(1, ordering: .releasing)  // counts the running read too
            handOn()
        }
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

/// A connection, the serial queue that is its only user, and how many reads are queued or running on it.
private final class Reader: @unchecked Sendable {
    let connection: SQLiteConnection
    let queue: DispatchQueue
    let queued = Atomic<Int>(0)

    init(connection: SQLiteConnection, label: String) {
        self.connection = connection
        self.queue = DispatchQueue(label: label)
    }
}
