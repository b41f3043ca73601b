import Foundation
import Logging
import Metrics
import Navigation
import Secrets
import SessionStorage
import Store

/// The session service: creates sessions, authenticates them, applies their events durably,
/// restores them lazily after a restart, and forgets them when they expire.
///
/// Every change is one store write: an event's model mutations and the session's new snapshot
/// commit together (on SQLite in one savepoint of a group commit, on PostgreSQL in one
/// transaction), and the caller hears back only after that commit. Memory is updated after the
/// commit, so a failed commit leaves the session exactly as it was. Each stored version is
/// written only over the version it was made from (compare-and-set), so when several nodes share
/// the store, memory is a cache: it is checked against the stored version on every request.
package final class SessionService: Sendable {
    package let app: NavigationApp
    let store: any SessionStore
    /// Runs the app's flows: each run's environment, the slow work between runs, the snapshot's limit.
    let flows: FlowRunner
    let configuration: SessionConfiguration
    let cache: SessionCache
    /// The events that read when they last ran, which skip the run without a connection.
    let connectionHints = ConnectionHints()
    let journalListings = JournalListings()
    let idempotency = IdempotencyGate()
    let pendingTouches = PendingTouches()
    let creations: CreationLimiter
    /// The live streams open on this node.
    let live: LiveHub
    /// The app's effect handlers and this node's lease on the effects it runs.
    let effects: EffectRunner
    let logger: Logger

    package init(
        app: NavigationApp, store: any SessionStore, passwords: PasswordHashPool, configuration: SessionConfiguration,
        logger: Logger, effects: EffectHandlers = EffectHandlers(), environment: @escaping EnvironmentFactory
    ) {
        self.effects = EffectRunner(handlers: effects)
        self.app = app
        self.store = store
        self.flows = FlowRunner(
            app: app, passwords: passwords, passwordJobsPerClient: configuration.passwordJobsPerClient,
            maxSnapshotBytes: configuration.maxSnapshotBytes, tables: store.sessions, environment: environment)
        self.configuration = configuration
        self.cache = SessionCache(capacity: configuration.maxResidentSessions)
        self.creations = CreationLimiter(perMinute: configuration.sessionsPerMinute)
        self.live = LiveHub(limits: configuration.streamLimits)
        self.logger = logger
    }

    /// Sessions in memory now.
    package var residentCount: Int { cache.count }

    /// Sessions evicted from memory so far.
    package var evictionCount: Int { cache.evictions }

    func now() -> Int64 { configuration.clock.now() }

    /// The session tables, as the store's backend writes them (the flows' own: one value).
    var tables: any SessionPersistence { flows.tables }

    // MARK: Create

    /// A new session for `platform`, with `link` opened (a link that cannot be opened is refused,
    /// nothing stored): its token (shown once, never stored) and its state. A client past its rate
    /// gets `429`, before anything is stored. Until its first event the session lives only
    /// `unusedTimeoutSeconds` without a request. `language` is the one the client asked for.
    package func create(platform: Platform, link: String? = nil, clientAddress: String, language: String? = nil) async throws
        -> (token: String, state: [UInt8], id: String)
    {
        // A link that names nothing is refused before it costs a creation.
        if let link { _ = try app.links.link(for: link) }
        let now = now()
        if let wait = creations.take(clientAddress, now: now) {
            throw SessionError.tooManySessions(retryAfterSeconds: wait)
        }
        let token = Tokens.random()
        let id = Tokens.random(bytes: 16)
        let tokenHash = Tokens.sha256(token)
        let expiresAt = now + configuration.timeout(atVersion: 1)
        let flows = self.flows
        let (tree, snapshot) = try await flows.withPreparations(client: clientAddress) { prepared in
            try await self.write { connection in
                let (tree, snapshot) = try flows.start(
                    platform: platform, link: link, on: connection, prepared,
                    RequestInfo(clientAddress: clientAddress, now: now, language: language), session: id)
                try self.tables.insertSession(
                    id: id, tokenHash: tokenHash, snapshot: snapshot, userID: tree.user?.id, now: now,
                    expiresAt: expiresAt, on: connection)
                try self.journalChange(
                    "(start)", session: id, user: tree.user?.id, from: 0, to: 1, snapshot: snapshot, now: now, connection)
                return (tree, snapshot)
            }
        }
        let session = await admit(
            ResidentSession(
                id: id, state: .init(tree: tree, version: 1, snapshot: snapshot, tokenHash: tokenHash, expiresAt: expiresAt)))
        defer { session.release() }
        return (token, render(session.current, id: id), id)
    }

    // MARK: Authenticate and load

    /// Runs `body` with the live session `id` that `token` authenticates, pinned in memory
    /// for the duration: 401 for a token no session has, 404 for an unknown session or
    /// another session's token.
    ///
    /// An event (`forEvent`) stores its new version with a compare-and-set, which catches a
    /// resident copy that another node moved on (the event then starts over from the store), and
    /// re-checks the stored version before any refusal; so on a shared store its resident copy is
    /// not checked against the store first when it knows the token and has not expired: one round
    /// trip less per event.
    package nonisolated(nonsending) func withSession<T>(
        id: String, token: String?, forEvent: Bool = false,
        _ body: nonisolated(nonsending) (ResidentSession) async throws -> T
    )
        async throws -> T
    {
        try await withSession(id: id, token: token, forEvent: forEvent) { session, _ in try await body(session) }
    }

    /// `withSession`, handing `body` the token's hash too: an event checks it again under the
    /// session's lock, and hashing it once more cost a SHA-256 per event.
    nonisolated(nonsending) func withSession<T>(
        id: String, token: String?, forEvent: Bool,
        _ body: nonisolated(nonsending) (ResidentSession, _ tokenHash: [UInt8]) async throws -> T
    ) async throws -> T {
        let (session, tokenHash) = try await authenticate(id: id, token: token, forEvent: forEvent)
        defer { session.release() }
        return try await body(session, tokenHash)
    }

    /// The live session `id` that `token` authenticates, pinned (the caller must `release` it),
    /// and the token's hash.
    private nonisolated(nonsending) func authenticate(id: String, token: String?, forEvent: Bool) async throws
        -> (ResidentSession, tokenHash: [UInt8])
    {
        guard let token, !token.isEmpty else { throw SessionError.unauthorized }
        let check = TokenCheck(token)
        if let known = residentSession(id, proving: check, forEvent: forEvent) { return known }
        let tokenHash = Tokens.sha256(token)
        if let session = try await load(id, tokenHash: tokenHash, forEvent: forEvent) {
            guard session.current.expiresAt >= now() else {
                session.release()
                throw SessionError.unauthorized
            }
            session.update { state in
                if state.tokenHash == tokenHash { state.provenToken = (tokenHash, check) }
            }
            return (session, tokenHash)
        }
        // Not this session's token: another session's (404) or nobody's (401)? On a shared store
        // only the store knows.
        var owner = store.isShared ? nil : cache.sessionID(tokenHash: tokenHash)
        if owner == nil { owner = try await read { [tables] in try tables.sessionID(tokenHash: tokenHash, on: $0) } }
        guard owner != nil else { throw SessionError.unauthorized }
        throw SessionError.notFound
    }

    /// The resident session `id`, pinned, and its token's hash, when `check` is the check of the
    /// token a request proved for that hash and the session has not expired: the token is the
    /// same, so no SHA-256 is needed. Where `load` would check the resident copy against the
    /// store (a shared store, except for an event), nil, as for a token not proved yet.
    private func residentSession(_ id: String, proving check: TokenCheck, forEvent: Bool)
        -> (ResidentSession, tokenHash: [UInt8])?
    {
        guard forEvent || !store.isShared, let resident = cache.checkOut(id) else { return nil }
        let state = resident.current
        guard let proven = state.provenToken, proven.check == check, proven.tokenHash == state.tokenHash,
            state.expiresAt >= now()
        else {
            resident.release()
            return nil
        }
        return (resident, state.tokenHash)
    }

    /// The session `id`, pinned, if `tokenHash` is its token's: from memory, or restored from
    /// its snapshot. The token is checked against the stored row first, so a wrong token never
    /// costs a restore. On a shared store the resident copy is checked against the stored row
    /// too, since another node may have moved the session on (but not for an event whose copy
    /// knows the token: see `withSession`).
    nonisolated(nonsending) func load(
        _ id: String, tokenHash: [UInt8], forEvent: Bool
    ) async throws -> ResidentSession? {
        if let resident = cache.checkOut(id) {
            if store.isShared {
                let cached = resident.current
                let current = Tokens.constantTimeEquals(cached.tokenHash, tokenHash) && cached.expiresAt >= now()
                if !(forEvent && current) { return try await revalidated(resident, tokenHash: tokenHash) }
                return resident
            }
            guard Tokens.constantTimeEquals(resident.current.tokenHash, tokenHash) else {
                resident.release()
                return nil
            }
            return resident
        }
        guard let row = try await read({ [tables] in try tables.loadSession(id: id, on: $0) }),
            Tokens.constantTimeEquals(row.tokenHash, tokenHash)
        else { return nil }
        return try await restore(row)
    }

    /// `resident` if it is still the stored version of its session, else the stored version
    /// restored in its place; nil when `tokenHash` is not the stored token (or the row is gone).
    private func revalidated(_ resident: ResidentSession, tokenHash: [UInt8]) async throws -> ResidentSession? {
        let cached = resident.current
        let head: StoredHead?
        do {
            head = try await read { [id = resident.id, tables] in
                try tables.checkSession(id: id, cachedVersion: cached.version, on: $0)
            }
        } catch {
            resident.release()
            throw error
        }
        guard let head, let snapshot = head.snapshot else {
            // Unchanged (or gone): the resident copy holds, with any later expiry another node stored.
            if let head, Tokens.constantTimeEquals(head.tokenHash, tokenHash) {
                resident.update {
                    $0.expiresAt = max($0.expiresAt, head.expiresAt)
                    $0.storedExpiresAt = max($0.storedExpiresAt, head.expiresAt)
                }
                return resident
            }
            resident.release()
            if head == nil { retire(resident) }
            return nil
        }
        resident.release()
        retire(resident)
        guard Tokens.constantTimeEquals(head.tokenHash, tokenHash) else { return nil }
        return try await restore(
            SessionRow(id: resident.id, tokenHash: head.tokenHash, version: head.version, snapshot: snapshot, expiresAt: head.expiresAt))
    }

    /// Makes the stored `row` resident (pinned), falling back to a fresh start when its snapshot
    /// no longer decodes.
    private func restore(_ row: SessionRow) async throws -> ResidentSession {
        var (version, snapshot) = (row.version, row.snapshot)
        let tree: NavigationTree
        do {
            tree = try app.decodeSnapshot(Self.json(ofStored: row.snapshot))
        } catch {
            (tree, version, snapshot) = try await fallBack(row, reason: error)
        }
        var state = ResidentSession.State(
            tree: tree, version: version, snapshot: snapshot, tokenHash: row.tokenHash, expiresAt: row.expiresAt)
        if let pending = pendingTouches.expiry(of: row.id), pending > state.expiresAt {
            // A read moved the expiry before the session left memory, and it is not stored yet.
            state.expiresAt = pending
            state.touched = true
        }
        return await admit(ResidentSession(id: row.id, state: state))
    }

    /// False (retiring `session`) when, on a shared store, the stored version moved past
    /// `version`: a refusal must be judged against the current state.
    func isCurrent(_ session: ResidentSession, version: Int) async throws -> Bool {
        guard store.isShared else { return true }
        let stored = try await read { [id = session.id, tables] in try tables.sessionVersion(id: id, on: $0) }
        guard stored == version else {
            retire(session)
            return false
        }
        return true
    }

    /// A snapshot this build cannot decode: start the root flow afresh (user kept) and store it.
    private func fallBack(_ row: SessionRow, reason: SnapshotError) async throws -> (NavigationTree, Int, [UInt8]) {
        let (app, flows) = (self.app, self.flows)
        let now = now()
        let result = try await flows.withPreparations(client: "") { prepared in
            try await self.write { connection -> (NavigationTree, Int, [UInt8], SnapshotFallback?) in
                let environment = flows.environment(
                    connection, prepared, RequestInfo(clientAddress: "", now: now), session: row.id)
                let (tree, fallback) = try app.restore(
                    (try? Self.json(ofStored: row.snapshot)) ?? [], environment: environment)
                let snapshot = try flows.snapshot(tree)
                guard
                    try self.tables.updateSession(
                        id: row.id, expectedVersion: row.version, snapshot: snapshot,
                        identity: SessionIdentity(tokenHash: row.tokenHash, userID: tree.user?.id), now: now,
                        expiresAt: row.expiresAt, previousExpiresAt: row.expiresAt, on: connection)
                else { throw SessionError.notFound }
                try self.journalChange(
                    "(fallback)", session: row.id, user: tree.user?.id, from: row.version, to: row.version + 1, snapshot: snapshot, now: now,
                    connection)
                return (tree, row.version + 1, snapshot, fallback)
            }
        }
        Counter(label: "coordinatord_snapshot_fallbacks_total").increment()
        logger.warning(
            "session snapshot fell back to a fresh start",
            metadata: ["session": "\(row.id)", "reason": "\(result.3?.reason.description ?? reason.description)"])
        return (result.0, result.1, result.2)
    }

    /// Makes `session` resident (pinned) unless another copy already is. What evicted sessions'
    /// reads moved joins the pending expiries, written once a batch is due.
    private func admit(_ session: ResidentSession) async -> ResidentSession {
        let (resident, evicted) = cache.insert(session)
        if pendingTouches.add(evicted) { await flushPendingTouches() }
        return resident
    }

    /// Takes `session` out of memory for good: requests waiting for its lock find it retired
    /// and load the session again from the store (where it may be gone).
    func retire(_ session: ResidentSession) {
        session.update { $0.retired = true }
        cache.remove(session)
    }

    // MARK: Read, tree, delete

    /// The session's State, and its version for the `ETag`. Reading keeps the session alive (a
    /// session that has had no event only for `unusedTimeoutSeconds`).
    package func state(of session: ResidentSession) -> (state: [UInt8], version: Int) {
        let now = now()
        session.update {
            $0.expiresAt = max($0.expiresAt, now + configuration.timeout(atVersion: $0.version))
            $0.touched = true
        }
        let current = session.current
        return (render(current, id: session.id), current.version)
    }

    package func tree(of session: ResidentSession) -> JSONValue {
        app.inspect(session.current.tree)
    }

    /// Deletes the session; its token is dead afterwards.
    package func delete(_ session: ResidentSession) async throws {
        let id = session.id
        let now = now()
        try await session.lock.withLock {
            try await self.write {
                // A deleted session leaves no history behind (an ended one keeps it for the retention).
                try self.tables.deleteJournal(session: id, willDeleteListings: self.journalListings.willDelete, on: $0)
                try self.tables.deleteSession(id: id, on: $0)
                try self.noticeOtherNodes([.deleted(id)], $0, now: now)
            }
            session.update { $0.expiresAt = Int64.min }
            retire(session)
            liveDeleted(id)
        }
    }

    // MARK: Helpers

    func render(_ state: ResidentSession.State, id: String) -> [UInt8] {
        app.renderState(state.tree, extra: ["id": .string(id), "version": .int(state.version)])
    }

    /// A durable write, with storage failures turned into `storageUnavailable` (see `storage`).
    nonisolated(nonsending) func write<T: Sendable>(
        _ work: @escaping @Sendable (any SQLConnection) throws -> T
    ) async throws -> T {
        try await storage("write") { try await store.write(work) }
    }

    nonisolated(nonsending) func read<T: Sendable>(
        _ work: @escaping @Sendable (any SQLConnection) throws -> T
    ) async throws -> T {
        try await storage("read") { try await store.read(work) }
    }

    /// Runs a storage call. A storage failure becomes `storageUnavailable` (logged and counted
    /// here) and a closed store `shuttingDown`: both say "retry, nothing changed". A statement the
    /// database refused (a flow's constraint violation, say) becomes `StatementFailed`: a bug,
    /// logged with its request where it is answered. An error a flow threw passes as it is.
    nonisolated(nonsending) func storage<T>(
        _ operation: String, _ body: nonisolated(nonsending) () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch let error as any DatabaseError where error.isStorageFailure {
            storageFailed(operation, error)
            throw SessionError.storageUnavailable(error.message)
        } catch let error as any DatabaseError {
            throw StatementFailed(error)
        } catch is StoreClosed {
            throw SessionError.shuttingDown
        }
    }

    private func storageFailed(_ operation: String, _ error: any Error) {
        logger.error("\(operation) failed", metadata: ["error": "\(error)"])
        Counter(label: "coordinatord_store_errors_total", dimensions: [("operation", operation)]).increment()
    }

    /// The JSON of a stored snapshot; a damaged one is unreadable, like JSON that does not decode.
    static func json(ofStored snapshot: [UInt8]) throws(SnapshotError) -> [UInt8] {
        do {
            return try StoredSnapshot.unpack(snapshot)
        } catch {
            throw .unreadable(error.description)
        }
    }
}
