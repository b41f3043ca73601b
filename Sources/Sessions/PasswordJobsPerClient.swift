import Synchronization

/// How many password jobs (hashes and verifications, waiting or running) each client has in the
/// hash pool, capped: the pool's queue is shared by everyone, so without a cap one address
/// looping over a password step fills it and every other sign-in gets `503`. A client at its
/// cap is refused at once (`429`), before any work is queued; other clients are unaffected.
/// Only clients with jobs have an entry, so the table is bounded by the jobs in flight.
final class PasswordJobsPerClient: Sendable {
    let limit: Int
    private let jobs = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Counts a job for `client`, or false when it already has `limit` of them.
    func begin(_ client: String) -> Bool {
        jobs.withLock { jobs in
            let count = jobs[client, default: 0]
            guard count < limit else { return false }
            jobs[client] = count + 1
            return true
        }
    }

    /// The job `begin` counted is done.
    func end(_ client: String) {
        jobs.withLock { jobs in
            let count = jobs[client, default: 1] - 1
            jobs[client] = count > 0 ? count : nil
        }
    }
}
