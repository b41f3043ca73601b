import Synchronization

/// One open live stream, as the session service sees it (the REST layer adapts an HTTP stream).
/// Calls come from any task; each must return at once (queue, never wait for the reader).
package protocol LiveSubscriber: AnyObject, Sendable {
    /// A committed State; its version only grows per subscriber (an older one is dropped).
    func deliver(_ update: LiveUpdate)
    /// The client has every version up to `version`: drop those, should one still arrive (a
    /// fan-out or another node's notice running late).
    func skip(through version: Int)
    /// The last frame: the stream's token no longer opens the session, for `reason`.
    func end(reason: LiveEndReason)
    /// A sign of life (`connected` false: this node lost its link to changes made elsewhere).
    func status(connected: Bool)
    /// A keep-alive comment.
    func heartbeat()
}

/// One committed State as every stream of its session gets it. The same object goes to each, so a
/// transport encodes it once (`encoded`) however many streams the session has.
package final class LiveUpdate: Sendable {
    package let version: Int
    package let state: [UInt8]
    private let memo = Mutex<[UInt8]?>(nil)

    init(version: Int, state: [UInt8]) {
        self.version = version
        self.state = state
    }

    /// `encode(self)`, computed by the first caller and shared with the others.
    package func encoded(_ encode: (LiveUpdate) -> [UInt8]) -> [UInt8] {
        if let done = memo.withLock({ $0 }) { return done }
        let bytes = encode(self)
        memo.withLock { $0 = $0 ?? bytes }
        return bytes
    }
}

/// Why a stream ended.
package enum LiveEndReason: String, Sendable {
    /// Another device signed in or changed the password: the token rotated.
    case tokenRotated = "token-rotated"
    /// The session signed out on another device.
    case signedOut = "signed-out"
    /// The session was deleted (`DELETE`), or ended by an action of its account elsewhere.
    case sessionEnded = "session-ended"
    /// The session expired.
    case sessionExpired = "session-expired"
}

/// Why a stream was refused.
package enum LiveRefusal: Error, Sendable {
    case perSession(Int)
    case perClient(Int)
    case node(Int)
}

/// The live streams of this node by session: who to tell about each commit, and the caps.
///
/// A subscriber holds the token hash it opened with: a commit that stored another token (a
/// sign-in, a sign-out, a password change on another device) ends it instead of showing it the
/// new state, so a dead token never sees what came after it.
package final class LiveHub: Sendable {
    package struct Limits: Sendable {
        package var perSession: Int
        package var perClient: Int
        package var total: Int

        package init(perSession: Int = 16, perClient: Int = 64, total: Int = 768) {
            self.perSession = perSession
            self.perClient = perClient
            self.total = total
        }
    }

    private struct Entry {
        let subscriber: any LiveSubscriber
        let tokenHash: [UInt8]
        let client: String
    }

    private struct Watched {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// The last version published here (0 before the first).
        var version = 0
        var userID: Int64?
        /// The expiry known when last published; the sweep checks sessions past it.
        var expiresAt: Int64 = .max
        /// On a shared store, when this node's lease on the session ends (`live_watches`).
        var leaseEnds: Int64 = .min

        /// Records a lease taken or renewed until `time` (a later end stays).
        mutating func leased(until time: Int64) { leaseEnds = max(leaseEnds, time) }
    }

    private struct Table {
        var sessions: [String: Watched] = [:]
        var perClient: [String: Int] = [:]
        var total = 0
    }

    let limits: Limits
    private let table = Mutex(Table())
    /// The link to other nodes' changes is down (set when it breaks, cleared when it is back).
    private let linkLost = Atomic<Bool>(false)

    package init(limits: Limits) {
        self.limits = limits
    }

    /// Streams open on this node.
    package var count: Int { table.withLock { $0.total } }

    /// Session ids with at least one stream here.
    package var watchedSessions: [String] { table.withLock { Array($0.sessions.keys) } }

    /// Registers `subscriber` for `sessionID`, or refuses it when a cap is reached.
    /// `leaseEnds`: the end of the lease taken for this stream, if one was (`live_watches`).
    func subscribe(
        _ subscriber: any LiveSubscriber, sessionID: String, tokenHash: [UInt8], client: String, userID: Int64?,
        expiresAt: Int64, leaseEnds: Int64? = nil
    ) throws(LiveRefusal) {
        let key = ClientKey.of(client)
        try table.withLock { table throws(LiveRefusal) in
            guard table.total < limits.total else { throw .node(limits.total) }
            let watched = table.sessions[sessionID] ?? Watched()
            guard watched.entries.count < limits.perSession else { throw .perSession(limits.perSession) }
            guard table.perClient[key, default: 0] < limits.perClient else { throw .perClient(limits.perClient) }
            var updated = watched
            updated.entries[ObjectIdentifier(subscriber)] = Entry(subscriber: subscriber, tokenHash: tokenHash, client: key)
            if watched.entries.isEmpty {
                updated.userID = userID
                updated.expiresAt = expiresAt
            }
            if let leaseEnds { updated.leased(until: leaseEnds) }
            table.sessions[sessionID] = updated
            table.perClient[key, default: 0] += 1
            table.total += 1
        }
    }

    /// Forgets `subscriber` (its stream closed). Does nothing if it is gone already.
    package func unsubscribe(_ subscriber: any LiveSubscriber, sessionID: String) {
        table.withLock { table in
            guard let entry = table.sessions[sessionID]?.entries.removeValue(forKey: ObjectIdentifier(subscriber)) else {
                return
            }
            Self.forget(entry, of: sessionID, in: &table)
        }
    }

    private static func forget(_ entry: Entry, of sessionID: String, in table: inout Table) {
        table.total -= 1
        table.perClient[entry.client, default: 1] -= 1
        if table.perClient[entry.client] == 0 { table.perClient[entry.client] = nil }
        if table.sessions[sessionID]?.entries.isEmpty == true { table.sessions[sessionID] = nil }
    }

    /// True when some stream here watches `sessionID` (so a commit is worth rendering).
    func isWatched(_ sessionID: String) -> Bool { table.withLock { $0.sessions[sessionID] != nil } }

    /// The last version published for `sessionID` here, or nil when nobody watches it.
    func publishedVersion(_ sessionID: String) -> Int? { table.withLock { $0.sessions[sessionID]?.version } }

    /// Tells every stream of `sessionID` about `version`: those whose token is `tokenHash` get the
    /// state; the others end (`signed-out` when the session's user left, else `token-rotated`) and
    /// are forgotten.
    func publish(
        sessionID: String, version: Int, tokenHash: [UInt8], userID: Int64?, expiresAt: Int64, state: [UInt8]
    ) {
        var rotation = LiveEndReason.tokenRotated
        let (current, ended) = table.withLock { table -> ([any LiveSubscriber], [any LiveSubscriber]) in
            guard var watched = table.sessions[sessionID] else { return ([], []) }
            if watched.userID != nil && userID == nil { rotation = .signedOut }
            if version > watched.version {
                watched.version = version
                watched.userID = userID
                watched.expiresAt = expiresAt
            }
            var current: [any LiveSubscriber] = []
            var ended: [Entry] = []
            for (key, entry) in watched.entries {
                if entry.tokenHash == tokenHash {
                    current.append(entry.subscriber)
                } else {
                    ended.append(entry)
                    watched.entries[key] = nil
                }
            }
            table.sessions[sessionID] = watched
            for entry in ended { Self.forget(entry, of: sessionID, in: &table) }
            return (current, ended.map(\.subscriber))
        }
        let update = LiveUpdate(version: version, state: state)
        for subscriber in current { subscriber.deliver(update) }
        for subscriber in ended { subscriber.end(reason: rotation) }
    }

    /// Ends every stream of `sessionID` (deleted, expired, ended elsewhere).
    func end(sessionID: String, reason: LiveEndReason) {
        let ended = table.withLock { table -> [any LiveSubscriber] in
            guard let watched = table.sessions[sessionID] else { return [] }
            for entry in watched.entries.values { Self.forget(entry, of: sessionID, in: &table) }
            table.sessions[sessionID] = nil
            return watched.entries.values.map(\.subscriber)
        }
        for subscriber in ended { subscriber.end(reason: reason) }
    }

    /// Sessions watched here whose user is one of `users`, except `sessionID`.
    func sessions(ofUsers users: Set<Int64>, except sessionID: String) -> [String] {
        table.withLock { table in
            table.sessions.compactMap { id, watched in
                id != sessionID && watched.userID.map(users.contains) == true ? id : nil
            }
        }
    }

    /// Sessions watched here whose known expiry is before `now` (to be checked against the store).
    func possiblyExpired(now: Int64) -> [String] {
        table.withLock { table in table.sessions.compactMap { $0.value.expiresAt < now ? $0.key : nil } }
    }

    /// Moves the known expiry of `sessionID` (a read extended it).
    func extend(_ sessionID: String, to expiresAt: Int64) {
        table.withLock { table in
            guard table.sessions[sessionID] != nil else { return }
            table.sessions[sessionID]!.expiresAt = max(table.sessions[sessionID]!.expiresAt, expiresAt)
        }
    }

    /// Records the link's state; true when streams should hear of it (a loss, or the return after one).
    func linkChanged(connected: Bool) -> Bool {
        linkLost.exchange(!connected, ordering: .acquiringAndReleasing) == connected
    }

    /// True when this node holds no lease on `sessionID` that lasts past `time`.
    func needsLease(_ sessionID: String, before time: Int64) -> Bool {
        table.withLock { ($0.sessions[sessionID]?.leaseEnds ?? .min) < time }
    }

    /// Sessions streamed here whose lease ends before `time`.
    func leasesToRenew(before time: Int64) -> [String] {
        table.withLock { table in table.sessions.compactMap { $0.value.leaseEnds < time ? $0.key : nil } }
    }

    /// Records that the leases of `sessionIDs` last until `time` (those still streamed here).
    func leased(_ sessionIDs: [String], until time: Int64) {
        table.withLock { table in
            for id in sessionIDs { table.sessions[id]?.leased(until: time) }
        }
    }

    /// Every subscriber, to tell them something (heartbeat, status).
    func everyone() -> [any LiveSubscriber] {
        table.withLock { table in table.sessions.values.flatMap { $0.entries.values.map(\.subscriber) } }
    }
}
