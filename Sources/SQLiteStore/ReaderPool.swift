import Foundation
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

/// A connection and the serial queue that is its only user.
private final class Reader: @unchecked Sendable {
    let connection: SQLiteConnection
    let queue: DispatchQueue

    init(connection: SQLiteConnection, label: String) {
        self.connection = connection
        self.queue = DispatchQueue(label: label)
    }
}
