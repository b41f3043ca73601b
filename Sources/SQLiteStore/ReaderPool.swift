import Foundation
import Store
import Synchronization

/// Read-only connections, each owned by its own serial queue, used round-robin.
/// In WAL mode readers never block the writer nor each other.
package final class ReaderPool: Sendable {
    private let readers: [Reader]
    private let next = Atomic<Int>(0)

    package init(path: String, count: Int = 2) throws {
        readers = try (0..<max(1, count)).map { index in
            Reader(connection: try SQLiteConnection(path: path, readOnly: true), label: "sqlite-reader-\(index)")
        }
    }

    /// Runs `work` on a reader connection off the caller's thread.
    package func read<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        let reader = readers[next.add(1, ordering: .relaxed).oldValue % readers.count]
        return try await withCheckedThrowingContinuation { continuation in
            reader.queue.async {
                continuation.resume(with: Result { try work(reader.connection) })
            }
        }
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
