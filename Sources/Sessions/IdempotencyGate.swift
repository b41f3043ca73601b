import Synchronization

/// The `Idempotency-Key`s whose first request is still running, so that a retry arriving
/// meanwhile gets `409` instead of queueing behind it.
final class IdempotencyGate: Sendable {
    private let running = Mutex(Set<String>())

    /// False if a request with this key for this session is already running.
    func begin(session: String, key: String) -> Bool {
        running.withLock { $0.insert(session + "\n" + key).inserted }
    }

    func end(session: String, key: String) {
        _ = running.withLock { $0.remove(session + "\n" + key) }
    }
}
