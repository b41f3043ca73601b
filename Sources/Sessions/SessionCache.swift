import Synchronization

/// The resident sessions, by id and by token hash, capped in number: past the cap the least
/// recently used sessions that no request uses leave memory (never the database).
///
/// Every session handed out is pinned (`ResidentSession.pins`, raised under this cache's lock)
/// until its request calls `release`, so a session is never evicted between a request's
/// authentication and its lock, and no session is ever resident twice.
final class SessionCache: Sendable {
    private struct Storage {
        var sessions: [String: ResidentSession] = [:]
        var idsByToken: [[UInt8]: String] = [:]
        var clock: UInt64 = 0
        var evictions = 0
    }

    let capacity: Int
    private let storage = Mutex(Storage())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { storage.withLock { $0.sessions.count } }

    /// Sessions evicted so far.
    var evictions: Int { storage.withLock { $0.evictions } }

    /// The resident session `id`, marked as just used and pinned; the caller must `release` it.
    func checkOut(_ id: String) -> ResidentSession? {
        storage.withLock { storage in
            guard let session = storage.sessions[id] else { return nil }
            storage.clock += 1
            let tick = storage.clock
            session.update { $0.lastUsed = tick }
            session.pins.add(1, ordering: .acquiring)
            return session
        }
    }

    /// The id of the resident session that `tokenHash` authenticates.
    func sessionID(tokenHash: [UInt8]) -> String? {
        storage.withLock { $0.idsByToken[tokenHash] }
    }

    /// Adds `session` unless one with its id is resident already; returns the resident one,
    /// pinned (the caller must `release` it), and the sessions evicted to stay under the cap.
    func insert(_ session: ResidentSession) -> (resident: ResidentSession, evicted: [ResidentSession]) {
        storage.withLock { storage in
            storage.clock += 1
            let tick = storage.clock
            if let existing = storage.sessions[session.id] {
                existing.update { $0.lastUsed = tick }
                existing.pins.add(1, ordering: .acquiring)
                return (existing, [])
            }
            session.update { $0.lastUsed = tick }
            session.pins.add(1, ordering: .acquiring)
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

    /// Forgets `session` if it is the one resident under its id.
    func remove(_ session: ResidentSession) {
        storage.withLock { storage in
            guard storage.sessions[session.id] === session else { return }
            storage.sessions[session.id] = nil
            storage.idsByToken[session.current.tokenHash] = nil
        }
    }

    /// Every resident session (for the sweeper).
    var all: [ResidentSession] { storage.withLock { Array($0.sessions.values) } }

    /// Resident sessions signed in as one of `users`.
    func sessions(ofUsers users: Set<Int64>) -> [ResidentSession] {
        storage.withLock { storage in
            storage.sessions.values.filter { session in session.current.tree.user.map { users.contains($0.id) } ?? false }
        }
    }

    /// Drops the least recently used sessions that no request uses, down to 90% of the cap
    /// (so eviction is amortised, not paid on every insert).
    private static func evict(_ storage: inout Storage, capacity: Int) -> [ResidentSession] {
        guard storage.sessions.count > capacity else { return [] }
        let target = capacity - capacity / 10
        let idle = storage.sessions.values.filter { !$0.isInUse }.sorted { $0.current.lastUsed < $1.current.lastUsed }
        let evicted = Array(idle.prefix(max(0, storage.sessions.count - target)))
        for session in evicted {
            storage.sessions[session.id] = nil
            storage.idsByToken[session.current.tokenHash] = nil
        }
        storage.evictions += evicted.count
        return evicted
    }
}
