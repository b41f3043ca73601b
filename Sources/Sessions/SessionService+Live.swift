import Logging
import Navigation
import Secrets
import SessionStorage
import Store

/// Live streams: every device of a session sees each committed version, and one that reconnects
/// naming the last version it saw gets the current State if it is newer (one frame brings it up
/// to date, since a State is complete).
extension SessionService {
    /// Opens a stream of `id` for the holder of `token`: the current State first when its version
    /// is above `lastEventID`, then every commit. Throws as a read would (401, 404), or
    /// `LiveRefusal` when a cap is reached.
    package func openStream(
        id: String, token: String?, lastEventID: Int?, client: String, subscriber: any LiveSubscriber
    ) async throws {
        let leaseEnds = try await leaseForStream(id, token: token)
        for _ in 0..<5 {
            let opened = try await withSession(id: id, token: token) { session in
                // Under the session's lock no commit runs: what the stream is registered after is
                // exactly what the current State shows.
                try await session.lock.withLock { () async throws -> Bool in
                    let current = session.current
                    guard !current.retired else { return false }
                    try live.subscribe(
                        subscriber, sessionID: id, tokenHash: current.tokenHash, client: client,
                        userID: current.tree.user?.id, expiresAt: current.expiresAt, leaseEnds: leaseEnds)
                    // The current State unless the client has exactly it. A client ahead of the
                    // session (a database restored from a backup, another deployment's ids) gets
                    // it too, rather than silence until the session catches up with its number.
                    if current.version != lastEventID {
                        subscriber.deliver(LiveUpdate(version: current.version, state: render(current, id: id)))
                    } else {
                        subscriber.skip(through: current.version)
                    }
                    return true
                }
            }
            if opened { return }
        }
        throw SessionError.storageUnavailable("the session kept changing; retry")
    }

    /// A commit of `session` on this node (called under its lock, after memory took the commit):
    /// its streams get the new State (`rendered`, when the answer already rendered it) or end, and
    /// streams of sessions the event ended end.
    func liveCommitted(_ session: ResidentSession, endedSessionsOfUsers users: Set<Int64>, rendered: [UInt8]? = nil) {
        if live.isWatched(session.id) {
            let now = session.current
            live.publish(
                sessionID: session.id, version: now.version, tokenHash: now.tokenHash, userID: now.tree.user?.id,
                expiresAt: now.expiresAt, state: rendered ?? render(now, id: session.id))
        }
        guard !users.isEmpty else { return }
        for other in live.sessions(ofUsers: users, except: session.id) { live.end(sessionID: other, reason: .sessionEnded) }
    }

    /// Ends the streams of a session deleted on this node.
    func liveDeleted(_ id: String) {
        live.end(sessionID: id, reason: .sessionEnded)
    }

    // MARK: Changes made on other nodes (PostgreSQL)

    /// A notice another node sent in a commit's transaction (`LiveNotice`): reads the session
    /// when a stream here watches it and has not seen that version.
    package func liveNotice(_ payload: String) async {
        guard let notice = LiveNotice(payload: payload) else { return }
        switch notice {
        case .committed(let id, let version):
            guard let published = live.publishedVersion(id), published < version else { return }
            await refreshLive(id)
        case .deleted(let id):
            guard live.isWatched(id) else { return }
            await refreshLive(id)
        case .endedUser(let user, let except):
            for id in live.sessions(ofUsers: [user], except: except) { await refreshLive(id) }
        }
    }

    /// The link to other nodes' changes broke (`connected` false) or is back: tells every stream,
    /// and after a break reads each watched session, so no version is lost meanwhile.
    package func liveConnection(connected: Bool) async {
        // Streams hear "connected" only after they heard "lost" (not when the node first listens).
        if live.linkChanged(connected: connected) {
            for subscriber in live.everyone() { subscriber.status(connected: connected) }
        }
        guard connected else { return }
        for id in live.watchedSessions { await refreshLive(id) }
    }

    /// Publishes the stored State of `id` to its streams here (or ends them when the row is gone
    /// or expired). A read that fails leaves the streams as they are: the next notice or catch-up retries.
    func refreshLive(_ id: String, gone: LiveEndReason = .sessionEnded) async {
        let now = now()
        do {
            guard let row = try await read({ [tables] in try tables.loadSession(id: id, on: $0) }) else {
                return live.end(sessionID: id, reason: gone)
            }
            guard row.expiresAt >= now || (cache.checkOut(id).map(expiryAndRelease) ?? row.expiresAt) >= now else {
                return live.end(sessionID: id, reason: .sessionExpired)
            }
            let tree = try app.decodeSnapshot(Self.json(ofStored: row.snapshot))
            live.publish(
                sessionID: id, version: row.version, tokenHash: row.tokenHash, userID: tree.user?.id,
                expiresAt: row.expiresAt,
                state: app.renderState(tree, extra: ["id": .string(id), "version": .int(row.version)]))
        } catch {
            logger.warning("live refresh failed", metadata: ["session": "\(id)", "error": "\(error)"])
        }
    }

    private func expiryAndRelease(_ session: ResidentSession) -> Int64 {
        defer { session.release() }
        return session.current.expiresAt
    }

    /// Ends the streams of sessions that expired (run after the sweep). Only sessions whose known
    /// expiry passed are read.
    package func endExpiredStreams() async {
        for id in live.possiblyExpired(now: now()) { await refreshLive(id, gone: .sessionExpired) }
    }

    /// Sends every stream a keep-alive comment.
    package func liveHeartbeat() {
        for subscriber in live.everyone() { subscriber.heartbeat() }
    }

    /// On a shared store, reads the stored versions of the sessions streamed here and refreshes
    /// those that moved past what their streams got (or went): streams converge on the committed
    /// version even when another node's notice was lost after its commit (a dropped link, a
    /// listener restarted), at the latest one heartbeat later.
    package func catchUpLiveStreams() async {
        guard store.isShared else { return }
        let (watched, tables) = (live.watchedSessions, self.tables)
        for start in stride(from: 0, to: watched.count, by: tables.sessionVersionsBatch) {
            let batch = Array(watched[start..<min(start + tables.sessionVersionsBatch, watched.count)])
            do {
                let stored = try await read { try tables.sessionVersions(ids: batch, on: $0) }
                for id in batch {
                    guard let published = live.publishedVersion(id) else { continue }
                    if let version = stored[id], version <= published { continue }
                    await refreshLive(id)
                }
            } catch {
                logger.warning("live catch-up failed", metadata: ["sessions": "\(batch.count)", "error": "\(error)"])
            }
        }
    }

    /// Streams open on this node.
    package var liveStreams: Int { live.count }

    /// The channel other nodes announce their commits on; nil where every stream is on this node.
    package var liveChannel: String? { tables.liveNotices?.channel }

    /// Sends heartbeats, renews the leases of the sessions streamed here and catches their
    /// streams up with the store (`catchUpLiveStreams`), every `interval` until cancelled.
    package func startHeartbeats(every interval: Duration) -> Task<Void, Never> {
        Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                liveHeartbeat()
                await renewLiveLeases()
                await catchUpLiveStreams()
            }
        }
    }

    // MARK: Leases (shared store)

    /// On a shared store, takes this node's lease on session `id` for a stream opened with
    /// `token`, unless it holds one for long enough: before the stream reads the session, so that
    /// no commit after that read goes untold. Returns the lease's end, for the stream to record
    /// as it subscribes; nil when none was taken (held already, or a token that does not open
    /// the session: the read that follows refuses the stream).
    func leaseForStream(_ id: String, token: String?) async throws -> Int64? {
        guard let notices = tables.liveNotices, let token, !token.isEmpty else { return nil }
        let now = now()
        guard live.needsLease(id, before: now + LiveLease.renewWithin) else { return nil }
        let (until, tokenHash) = (now + LiveLease.seconds, Tokens.sha256(token))
        let taken = try await write { try notices.takeLease(sessionID: id, tokenHash: tokenHash, until: until, on: $0) }
        return taken ? until : nil
    }

    /// On a shared store, renews the leases of the sessions streamed here that end within
    /// `LiveLease.renewWithin`. A failure is logged; the next heartbeat or sweep tries again.
    package func renewLiveLeases() async {
        guard let notices = tables.liveNotices else { return }
        let now = now()
        let due = live.leasesToRenew(before: now + LiveLease.renewWithin)
        let until = now + LiveLease.seconds
        for start in stride(from: 0, to: due.count, by: LiveLease.batchSize) {
            let batch = Array(due[start..<min(start + LiveLease.batchSize, due.count)])
            do {
                try await write { try notices.takeLeases(sessionIDs: batch, until: until, on: $0) }
                live.leased(batch, until: until)
            } catch {
                logger.warning(
                    "renewing live leases failed", metadata: ["sessions": "\(batch.count)", "error": "\(error)"])
            }
        }
    }
}

/// What one commit tells the other nodes, as the payload of a PostgreSQL `NOTIFY` sent in its
/// transaction (so it is delivered if and only if the commit is): `c:<version>:<session>`,
/// `d:<session>` for a deletion, `u:<user>:<session>` for the sessions of a user that
/// `<session>` ended.
enum LiveNotice: Equatable {
    case committed(String, version: Int)
    case deleted(String)
    case endedUser(Int64, except: String)

    init?(payload: String) {
        let parts = payload.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("c", 3): guard let version = Int(parts[1]) else { return nil }; self = .committed(parts[2], version: version)
        case ("d", 2): self = .deleted(parts[1])
        case ("u", 3): guard let user = Int64(parts[1]) else { return nil }; self = .endedUser(user, except: parts[2])
        default: return nil
        }
    }

    var payload: String {
        switch self {
        case .committed(let id, let version): "c:\(version):\(id)"
        case .deleted(let id): "d:\(id)"
        case .endedUser(let user, let except): "u:\(user):\(except)"
        }
    }

    /// Sends the notice once `connection`'s transaction commits, and only then, as `notices`
    /// sends it. A notice lost between the two (PostgreSQL stopped) is caught up: every
    /// listener's connection broke too, and it reads its streamed sessions once it listens again.
    ///
    /// A commit is told only while some node leases its session (`LiveLease`, checked at `now`):
    /// the check runs after the commit, so a node that took its lease too late for it reads the
    /// commit itself. Deletions and ended users, which are rare, are always told.
    func send(_ notices: any LiveNoticePersistence, _ connection: any SQLConnection, now: Int64) throws {
        let leased: String? = if case .committed(let id, _) = self { id } else { nil }
        try notices.notice(payload, ifLeased: leased, now: now, on: connection)
    }
}

extension SessionService {
    /// On a shared store, sends `notices` once the transaction of `connection` commits; nothing on
    /// SQLite, where every stream is on this node. No round trip of its own: they go with `COMMIT`.
    /// (`notices` is made only then: on SQLite, every event would build it for nothing.)
    func noticeOtherNodes(_ notices: @autoclosure () -> [LiveNotice], _ connection: any SQLConnection, now: Int64) throws {
        guard let persistence = tables.liveNotices else { return }
        for notice in notices() { try notice.send(persistence, connection, now: now) }
    }
}

extension SessionService {
    /// Forgets a stream that closed.
    package func unsubscribeStream(_ subscriber: any LiveSubscriber, sessionID: String) {
        live.unsubscribe(subscriber, sessionID: sessionID)
    }
}
