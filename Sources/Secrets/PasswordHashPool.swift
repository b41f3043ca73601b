import CSodium
import Foundation

/// Runs password hashing on a fixed number of dedicated threads at a lower scheduling priority,
/// so a burst of sign-ins occupies at most `concurrency` threads, yields the CPU to requests and
/// the writer, and cannot starve them.
public final class PasswordHashPool: Sendable {
    public let hasher: PasswordHasher
    private let queue = HashQueue()

    /// Niceness of the hashing threads: they get about a quarter of a core's share when it is contended.
    static let niceness: Int32 = 5

    public init(hasher: PasswordHasher = .owaspMinimum, concurrency: Int = 1) {
        self.hasher = hasher
        for index in 0..<max(1, concurrency) {
            let queue = self.queue
            let thread = Thread {
                _ = coordinatord_lower_thread_priority(Self.niceness)
                while let job = queue.take() { job() }
            }
            thread.name = "password-hash-\(index)"
            thread.start()
        }
    }

    deinit {
        queue.close()
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
        try await withCheckedThrowingContinuation { continuation in
            queue.push { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// Jobs for the hashing threads, first in first out. Every field is guarded by `condition`'s lock.
private final class HashQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var closed = false

    func push(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The next job, waiting for one; nil once closed.
    func take() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !closed { condition.wait() }
        return closed ? nil : jobs.removeFirst()
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
