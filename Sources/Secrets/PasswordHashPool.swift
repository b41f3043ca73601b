import CSodium
import CThreadName
import Foundation

/// Runs password hashing on a fixed number of dedicated threads at a lower scheduling priority,
/// so a burst of sign-ins occupies at most `concurrency` threads, yields the CPU to requests and
/// the writer, and cannot starve them. At most `maxQueued` jobs wait; past that a caller is
/// refused at once with `PasswordPoolBusy` (the service answers `503` with `Retry-After`), so a
/// flood of registrations cannot push everyone's sign-in back by seconds.
///
/// Waiting jobs are taken in turn by client (`client`), one job per client per round, so a
/// client with several jobs waiting delays another client's job by at most one of its own.
package final class PasswordHashPool: Sendable {
    /// The client that jobs queued by this task are for (fair queuing); the session service
    /// sets it around an event's password work. Jobs queued without it share one turn.
    @TaskLocal package static var client = ""

    package let hasher: PasswordHasher
    private let queue: HashQueue

    /// Niceness of the hashing threads: they get about a quarter of a core's share when it is contended.
    static let niceness: Int32 = 5

    package init(hasher: PasswordHasher = .owaspMinimum, concurrency: Int = 1, maxQueued: Int = 32) {
        self.hasher = hasher
        self.queue = HashQueue(maxQueued: max(0, maxQueued))
        for index in 0..<max(1, concurrency) {
            let queue = self.queue
            let thread = Thread {
                coordinatord_name_this_thread("password-hash-\(index)")
                _ = coordinatord_lower_thread_priority(Self.niceness)
                while let job = queue.take() { job.run() }
            }
            thread.start()
        }
    }

    deinit {
        queue.close()
    }

    /// Hashes `password` off the caller's thread.
    package func hash(_ password: String) async throws -> String {
        let hasher = self.hasher
        return try await run { try hasher.hash(password) }
    }

    /// Verifies `password` against `encodedHash` off the caller's thread.
    package func verify(_ password: String, against encodedHash: String) async throws -> Bool {
        let hasher = self.hasher
        return try await run { hasher.verify(password, against: encodedHash) }
    }

    /// Refuses new work and fails every job still waiting, so that no caller waits for ever.
    package func close() {
        queue.close()
    }

    /// Jobs waiting, jobs refused so far, and the time jobs waited, for metrics.
    package var statistics: PasswordPoolStatistics { queue.statistics }

    /// Holds the waiting jobs until `resume` (a running one finishes). Tests use it to keep a
    /// request deterministically in flight; a server never calls it.
    package func pause() { queue.setPaused(true) }

    /// Lets the hashing threads take jobs again.
    package func resume() { queue.setPaused(false) }

    /// Runs `work` on a hashing thread in the turn of `client`.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let client = Self.client
        return try await withCheckedThrowingContinuation { continuation in
            queue.push(
                HashJob(
                    run: { continuation.resume(with: Result { try work() }) },
                    fail: { continuation.resume(throwing: $0) }),
                client: client)
        }
    }
}

/// The password pool is full (or closed): the caller should retry after a short while.
package struct PasswordPoolBusy: Error, CustomStringConvertible, Sendable {
    package let retryAfterSeconds: Int
    package var description: String { "too many password checks are waiting" }
}

/// What the password pool has done so far.
package struct PasswordPoolStatistics: Sendable, Equatable {
    /// Jobs waiting for a hashing thread now.
    package let waiting: Int
    /// Jobs taken by a hashing thread so far.
    package let started: Int
    /// Jobs refused because the queue was full or closed.
    package let refused: Int
    /// Seconds the started jobs spent waiting, summed.
    package let waitSeconds: Double
}

/// One job: its work, and how to fail it without running it.
private struct HashJob: Sendable {
    let run: @Sendable () -> Void
    let fail: @Sendable (any Error) -> Void
    let queuedAt = ContinuousClock.now
}

/// Jobs for the hashing threads: first in first out per client, clients in turn. Every field is
/// guarded by `condition`'s lock. (Arrays, not deques: at most `maxQueued` jobs ever wait.)
private final class HashQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private let maxQueued: Int
    /// Waiting jobs by client, and the clients with waiting jobs in the order of their turns.
    private var jobs: [String: [HashJob]] = [:]
    private var turns: [String] = []
    private var waiting = 0
    private var closed = false
    private var paused = false
    private var started = 0
    private var refused = 0
    private var waited = Duration.zero

    init(maxQueued: Int) {
        self.maxQueued = maxQueued
    }

    func push(_ job: HashJob, client: String) {
        condition.lock()
        guard !closed, waiting < maxQueued else {
            refused += 1
            condition.unlock()
            job.fail(PasswordPoolBusy(retryAfterSeconds: 1))
            return
        }
        if jobs[client] == nil { turns.append(client) }
        jobs[client, default: []].append(job)
        waiting += 1
        condition.signal()
        condition.unlock()
    }

    /// The next job, waiting for one; nil once closed. The client whose turn it is gives its
    /// oldest job and goes to the back of the turns if it has more.
    func take() -> HashJob? {
        condition.lock()
        defer { condition.unlock() }
        while (waiting == 0 || paused) && !closed { condition.wait() }
        guard !closed else { return nil }
        let client = turns.removeFirst()
        let job = jobs[client]!.removeFirst()  // a client has a turn only while it has jobs
        if jobs[client]!.isEmpty { jobs[client] = nil } else { turns.append(client) }
        waiting -= 1
        started += 1
        waited += job.queuedAt.duration(to: .now)
        return job
    }

    func close() {
        condition.lock()
        closed = true
        let abandoned = turns.flatMap { jobs[$0] ?? [] }
        jobs = [:]
        turns = []
        waiting = 0
        refused += abandoned.count
        condition.broadcast()
        condition.unlock()
        for job in abandoned { job.fail(PasswordPoolBusy(retryAfterSeconds: 1)) }
    }

    func setPaused(_ value: Bool) {
        condition.lock()
        paused = value
        condition.broadcast()
        condition.unlock()
    }

    var statistics: PasswordPoolStatistics {
        condition.lock()
        defer { condition.unlock() }
        return PasswordPoolStatistics(waiting: waiting, started: started, refused: refused, waitSeconds: waited / .seconds(1))
    }
}
