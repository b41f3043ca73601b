import Synchronization

/// The resident sessions, by id and by token hash, capped in number: past the cap the least
/// recently used sessions that no request uses leave memory (never the database), those that
/// have had no event yet first, so a flood of new sessions never pushes out the ones in use.
///
/// Recency is two intrusive lists (sessions that have had no event, and the others), most
/// recent first: a use moves a session to the front of its list and eviction takes from the
/// back, each in constant time, so reaching the cap costs no sort and no pause. Every session handed out is pinned (`ResidentSession.pins`, raised under this
/// cache's lock) until its request calls `release`, so a session is never evicted between a
/// request's authentication and its lock, and no session is ever resident twice. A session
/// found in use at the back is moved to the front (a second chance) rather than evicted.
final class SessionCache: Sendable {
    /// A resident session's place in the recency list; only touched under the cache's lock.
    private final class Node {
        let session: ResidentSession
        var newer: Node?
        var older: Node?
        /// In the list of sessions that had no event when last looked at.
        var unused: Bool

        init(_ session: ResidentSession) {
            self.session = session
            self.unused = session.current.version == 1
        }
    }

    /// One recency list: its ends and length.
    private struct Recency {
        var newest: Node?
        var oldest: Node?
        var count = 0
    }

    private struct Storage {
        var nodes: [String: Node] = [:]
        var idsByToken: [[UInt8]: String] = [:]
        var unused = Recency()
        var used = Recency()
        var evictions = 0

        mutating func pushNewest(_ node: Node) {
            node.unused ? Self.pushNewest(node, &unused) : Self.pushNewest(node, &used)
        }

        mutating func unlink(_ node: Node) {
            node.unused ? Self.unlink(node, &unused) : Self.unlink(node, &used)
        }

        private static func pushNewest(_ node: Node, _ list: inout Recency) {
            node.older = list.newest
            node.newer = nil
            list.newest?.newer = node
            list.newest = node
            if list.oldest == nil { list.oldest = node }
            list.count += 1
        }

        private static func unlink(_ node: Node, _ list: inout Recency) {
            if let newer = node.newer { newer.older = node.older } else { list.newest = node.older }
            if let older = node.older { older.newer = node.newer } else { list.oldest = node.newer }
            node.newer = nil
            node.older = nil
            list.count -= 1
        }

        /// Moves `node` to the front of its list, or of the used list once its session had an event.
        mutating func touch(_ node: Node) {
            let moves = node.unused && node.session.current.version > 1
            guard moves || (node.unused ? unused.newest : used.newest) !== node else { return }
            unlink(node)
            if moves { node.unused = false }
            pushNewest(node)
        }

        mutating func remove(_ node: Node) {
            unlink(node)
            nodes[node.session.id] = nil
            idsByToken[node.session.current.tokenHash] = nil
        }
    }

    let capacity: Int
    private let storage = Mutex(Storage())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { storage.withLock { $0.nodes.count } }

    /// Sessions evicted so far.
    var evictions: Int { storage.withLock { $0.evictions } }

    /// The resident session `id`, marked as just used and pinned; the caller must `release` it.
    func checkOut(_ id: String) -> ResidentSession? {
        storage.withLock { storage in
            guard let node = storage.nodes[id] else { return nil }
            storage.touch(node)
            node.session.pins.add(1, ordering: .acquiring)
            return node.session
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
            if let existing = storage.nodes[session.id] {
                storage.touch(existing)
                existing.session.pins.add(1, ordering: .acquiring)
                return (existing.session, [])
            }
            session.pins.add(1, ordering: .acquiring)
            let node = Node(session)
            storage.nodes[session.id] = node
            storage.idsByToken[session.current.tokenHash] = session.id
            storage.pushNewest(node)
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
            guard let node = storage.nodes[session.id], node.session === session else { return }
            storage.remove(node)
        }
    }

    /// Every resident session (for the sweeper).
    var all: [ResidentSession] { storage.withLock { $0.nodes.values.map(\.session) } }

    /// Resident sessions signed in as one of `users`.
    func sessions(ofUsers users: Set<Int64>) -> [ResidentSession] {
        storage.withLock { storage in
            storage.nodes.values.map(\.session).filter { session in
                session.current.tree.user.map { users.contains($0.id) } ?? false
            }
        }
    }

    /// Evicts from the back of the recency lists down to the cap, sessions that have had no
    /// event first: constant time per session. Sessions in use move to the front instead (and
    /// one that has had its first event to the used list); if every session is in use, the
    /// cache stays over its cap until some are released (each list is looked through once).
    private static func evict(_ storage: inout Storage, capacity: Int) -> [ResidentSession] {
        var evicted: [ResidentSession] = []
        for unused in [true, false] {
            var looks = unused ? storage.unused.count : storage.used.count
            while storage.nodes.count > capacity, looks > 0,
                let candidate = unused ? storage.unused.oldest : storage.used.oldest
            {
                looks -= 1
                if candidate.session.isInUse || (unused && candidate.session.current.version > 1) {
                    storage.touch(candidate)
                } else {
                    storage.remove(candidate)
                    evicted.append(candidate.session)
                }
            }
        }
        storage.evictions += evicted.count
        return evicted
    }
}
