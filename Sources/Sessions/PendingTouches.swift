import Synchronization

/// The expiries that reads moved for sessions that left memory before those expiries were
/// stored: kept here and written in batches, so evicting a session costs no write of its own.
///
/// The sweep writes them all before it deletes anything expired, so no session is ever deleted
/// on an expiry older than its last read; a session restored meanwhile takes its pending expiry.
final class PendingTouches: Sendable {
    /// Pending expiries past this many are written at once (by the request that adds them).
    static let batch = 256

    private let expiries = Mutex<[String: Int64]>([:])

    /// Adds the moved expiries of `sessions` (those that have one); true when a batch is due.
    func add(_ sessions: [ResidentSession]) -> Bool {
        var moved: [(String, Int64)] = []
        for session in sessions {
            session.update { state in
                guard state.touched else { return }
                state.touched = false
                moved.append((session.id, state.expiresAt))
            }
        }
        guard !moved.isEmpty else { return false }
        return expiries.withLock { expiries in
            for (id, expiresAt) in moved { expiries[id] = max(expiries[id] ?? .min, expiresAt) }
            return expiries.count >= Self.batch
        }
    }

    /// The pending expiry of session `id`, if any.
    func expiry(of id: String) -> Int64? {
        expiries.withLock { $0[id] }
    }

    /// Takes every pending expiry, to write.
    func takeAll() -> [String: Int64] {
        expiries.withLock { expiries in
            defer { expiries = [:] }
            return expiries
        }
    }

    /// Puts back expiries whose write failed, so the next flush tries again.
    func restore(_ failed: [String: Int64]) {
        expiries.withLock { expiries in
            for (id, expiresAt) in failed { expiries[id] = max(expiries[id] ?? .min, expiresAt) }
        }
    }
}
