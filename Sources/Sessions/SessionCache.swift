import Synchronization

/// The resident sessions, by id and by token hash, capped in number: past the cap the least
/// recently used idle sessions leave memory (never the database).
final class SessionCache: Sendable {
    private struct Storage {
        var sessions: [String: ResidentSession] = [:]
        var idsByToken: [[UInt8]: String] = [:]
        var clock: UInt64 = 0
    }

    let capacity: Int
    private let storage = Mutex(Storage())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { storage.withLock { $0.sessions.count } }

    /// The resident session `id`, marked as just used.
    func get(_ id: String) -> ResidentSession? {
        storage.withLock { storage in
            guard let session = storage.sessions[id] else { return nil }
            storage.clock += 1
            let tick = storage.clock
            session.update { $0.lastUsed = tick }
            return session
        }
    }

    /// The id of the resident session that `tokenHash` authenticates.
    func sessionID(tokenHash: [UInt8]) -> String? {
        storage.withLock { $0.idsByToken[tokenHash] }
    }

    /// Adds `session` unless one with its id is resident already; returns the resident one,
    /// and the sessions evicted to stay under the cap.
    func insert(_ session: ResidentSession) -> (resident: ResidentSession, evicted: [ResidentSession]) {
        storage.withLock { storage in
            if let existing = storage.sessions[session.id] { return (existing, []) }
            storage.clock += 1
            let tick = storage.clock
            session.update { $0.lastUsed = tick }
            storage.sessions[session.id] = session
            storage.idsByToken[session.current.tokenHash] = session.id
            return (session, Self.evict(&storage, capacity: capacity))
        }
    }

    /// Replaces the token index entry after a rotation.
    func retoken(_ id: String, from old: [UInt8], to new: [UInt8]) {
        storage.withLock { storage in
            storage.idsByToken[old] = nil
            storage.idsByToken[new] = id
        }
    }

    func remove(_ id: String) {
        storage.withLock { storage in
            guard let session = storage.sessions.removeValue(forKey: id) else { return }
            storage.idsByToken[session.current.tokenHash] = nil
        }
    }

    /// Every resident session (for the sweeper).
    var all: [ResidentSession] { storage.withLock { Array($0.sessions.values) } }

    /// Drops the least recently used idle sessions down to 90% of the cap (so eviction is
    /// amortised, not paid on every insert).
    private static func evict(_ storage: inout Storage, capacity: Int) -> [ResidentSession] {
        guard storage.sessions.count > capacity else { return [] }
        let target = capacity - capacity / 10
        let idle = storage.sessions.values.filter { !$0.lock.isBusy }.sorted { $0.current.lastUsed < $1.current.lastUsed }
        let evicted = Array(idle.prefix(max(0, storage.sessions.count - target)))
        for session in evicted {
            storage.sessions[session.id] = nil
            storage.idsByToken[session.current.tokenHash] = nil
        }
        return evicted
    }
}
