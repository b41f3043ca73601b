import Foundation
import Synchronization

/// Runs password hashing on a fixed number of dedicated queues, so a burst of sign-ins can
/// occupy at most `concurrency` threads and cannot starve request handling or the writer.
public final class PasswordHashPool: Sendable {
    public let hasher: PasswordHasher
    private let queues: [DispatchQueue]
    private let next = Atomic<Int>(0)

    public init(hasher: PasswordHasher = .owaspMinimum, concurrency: Int = 1) {
        self.hasher = hasher
        self.queues = (0..<max(1, concurrency)).map { DispatchQueue(label: "password-hash-\($0)") }
    }

    /// Hashes `password` off the caller's thread.
    public func hash(_ password: String) async throws -> String {
        let hasher = self.hasher
        return try await run { try hasher.hash(password) }
    }

    /// Verifies `password` against `encodedHash` off the caller's thread.
    public func verify(_ password: String, against encodedHash: String) async -> Bool {
        let hasher = self.hasher
        return (try? await run { hasher.verify(password, against: encodedHash) }) ?? false
    }

    private func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let queue = queues[next.add(1, ordering: .relaxed).oldValue % queues.count]
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
