import Navigation
import Sessions

extension AppTester {
    /// Sends `output` from the top screen, which must be a `screen`: the flow with typed values,
    /// as a client would send it (`send(LoginScreen.self, .submit(credentials))`).
    @discardableResult
    public mutating func send<S: ScreenType>(_ screen: S.Type, _ output: S.Output) async throws -> EventOutcome {
        try expectTop(S.self)
        let event = try IncomingEvent(screen, output, on: top.id)
        return try await send(event.name, event.payload)
    }

    /// Sends event `name` with `payload` as a client would, from the top screen: a system event
    /// (`back`, `dismiss`, `selectTab`), or a payload a typed output cannot make (a wrong shape).
    ///
    /// Runs as the server runs an event: a transaction per run, password work and prepared work
    /// between runs, the snapshot's byte limit. A refused event (an `EventRejection`, an
    /// `EventThrottled`, an error of the flow) throws and changes nothing but its lasting writes,
    /// which commit on their own, as the server commits them.
    @discardableResult
    public mutating func send(_ name: String, _ payload: JSONValue = .null) async throws -> EventOutcome {
        guard !shared.hasEnded(sessionID) else { throw SessionEnded(session: sessionID) }
        if exhaustive, !unasserted.isEmpty { throw UnassertedChanges(changes: unasserted) }
        let before: JSONValue? = exhaustive ? state : nil
        let (flows, database, id, tree) = (shared.flows, shared.database, sessionID, self.tree)
        let event = IncomingEvent(screen: top.id, name: name, payload: payload)
        let info = RequestInfo(
            clientAddress: clientAddress, now: clock.now, deviceToken: deviceToken,
            language: acceptLanguage.map { navigation.translations.language(for: $0) })
        let lasting = LastingWritesLog()
        var runs = 0
        defer { flowRunsOfLastEvent = runs }
        let (applied, outcome): (NavigationTree, EventOutcome)
        do {
            (applied, outcome) = try await flows.withPreparations(client: clientAddress, lasting: lasting) { prepared in
                try database.transaction {
                    // As the server does: what the handler declares is prepared first, so the flow
                    // runs once; the declaration only reads, and one that fails decides nothing.
                    try database.execute("PRAGMA query_only = ON")
                    let declared = Result { try flows.declaredAccess(event, in: tree, on: database, prepared, info, session: id) }
                    try database.execute("PRAGMA query_only = OFF")
                    if case .failure(let error) = declared, FlowRunner.asksForWork(error) { throw error }
                    var working = tree
                    runs += 1
                    let outcome = try flows.apply(event, to: &working, on: database, prepared, info, session: id).outcome
                    try Self.checkRestores(working, flows.app)
                    return (working, outcome)
                }
            }
        } catch {
            try await lasting.commit { write in try database.transaction { try write(database) } }
            throw error
        }
        self.tree = applied
        version += 1
        if let before { unasserted = Self.changes(from: before, to: state) }
        pendingEffects += outcome.effects.map { PendingEffect(id: shared.newEffectID(), requested: $0) }
        if let given = outcome.deviceToken { givenDeviceToken = given }
        shared.signedIn(applied.user?.id, session: sessionID)
        shared.endSessions(ofUsers: outcome.endedSessionsOfUsers, except: sessionID)
        return outcome
    }

    /// Fails the event when the session's snapshot does not give back `tree`: after a restart or
    /// an eviction the session would not be what its users saw.
    private static func checkRestores(_ tree: NavigationTree, _ navigation: NavigationApp) throws {
        let restored: NavigationTree
        do {
            restored = try navigation.decodeSnapshot(navigation.snapshot(tree))
        } catch {
            throw NavigationError("the session's snapshot does not restore it (a restart would start it over): \(error)")
        }
        guard restored == tree else {
            throw NavigationError(
                "the session's snapshot restores another tree than the one shown: check each coordinator's Codable state")
        }
    }
}

/// Another session of the same user ended this one (`Context.endOtherSessions`): the server
/// deleted it, and its client's next request is `401`.
public struct SessionEnded: Error, CustomStringConvertible {
    /// The ended session's id.
    public let session: String
    public var description: String { "\(session) was ended by another session of its user" }
}
