import Navigation
import Secrets
import SessionStorage
import Store

extension SessionService {
    /// What one run of an event's flow made: the tree, the outcome, the snapshot to store, the
    /// token when it rotated, and the answer when it was rendered with the run (see `commit`).
    struct FlowRun: Sendable {
        /// What the run made, shared by the copies the commit's stages pass on (a struct of it
        /// was copied, each field retained, at every stage).
        final class Made: Sendable {
            let tree: NavigationTree
            let outcome: EventOutcome
            let snapshot: [UInt8]
            /// The event's journal entry, made with the run (off the writer, for a run that is);
            /// nil with the journal off.
            let journal: JournalRecord?
            let newToken: String?
            let tokenHash: [UInt8]
            let answer: StoredAnswer?
            /// The user whose row the write must find (`FlowRunner.apply`'s `userToConfirm`).
            let userToConfirm: Int64?

            init(
                tree: NavigationTree, outcome: EventOutcome, snapshot: [UInt8], journal: JournalRecord?,
                newToken: String?, tokenHash: [UInt8], answer: StoredAnswer?, userToConfirm: Int64?
            ) {
                (self.tree, self.outcome, self.snapshot, self.journal) = (tree, outcome, snapshot, journal)
                (self.newToken, self.tokenHash) = (newToken, tokenHash)
                (self.answer, self.userToConfirm) = (answer, userToConfirm)
            }
        }

        let made: Made
        /// Set by the write: the session's journal listing as it left it.
        var journalListing: JournalListings.Listed?
        /// Set by the write: the run changed nothing (an `open` of what is shown), so nothing was stored.
        var unchanged = false

        var tree: NavigationTree { made.tree }
        var outcome: EventOutcome { made.outcome }
        var snapshot: [UInt8] { made.snapshot }
        var journal: JournalRecord? { made.journal }
        var newToken: String? { made.newToken }
        var tokenHash: [UInt8] { made.tokenHash }
        var answer: StoredAnswer? { made.answer }
        var userToConfirm: Int64? { made.userToConfirm }
    }

    /// Runs the event's flow on `connection`, with models bound to it; renders the answer when
    /// `renderAnswer` or the answer is to be stored for its `Idempotency-Key`.
    func runFlow(
        _ request: EventRequest, current: ResidentSession.State, now: Int64, _ connection: any SQLConnection,
        _ prepared: PreparedWork, renderAnswer: Bool, userCheckInWrite: Bool
    ) throws -> FlowRun {
        let info = RequestInfo(
            clientAddress: request.clientAddress, now: now, deviceToken: request.deviceToken, language: request.language)
        // The journal keeps the model writes the flow made, for `check-deploy` to compare.
        let recorder = configuration.journal.enabled ? WriteRecorder(connection) : nil
        let (tree, outcome, snapshot, json, userToConfirm) = try flows.applying(
            request.event, from: current.tree, on: recorder ?? connection, prepared, info, session: request.sessionID,
            userCheckInWrite: userCheckInWrite)
        let newToken = outcome.credentialsRotated ? Tokens.random() : nil
        let answer =
            renderAnswer || (request.idempotencyKey != nil && request.token != nil)
            ? Self.answer(
                app, tree, id: request.sessionID, version: current.version + 1, token: newToken,
                deviceToken: outcome.deviceToken, droppedLink: outcome.droppedLink) : nil
        return FlowRun(made: FlowRun.Made(
            tree: tree, outcome: outcome, snapshot: snapshot,
            journal: configuration.journal.enabled
                ? journalRecord(
                    request, current: current, tree: tree,
                    snapshot: journalSnapshot(snapshot, json: json, over: current, version: current.version + 1), now: now,
                    writes: recorder?.journalText)
                : nil,
            newToken: newToken,
            tokenHash: newToken.map(Tokens.sha256) ?? current.tokenHash, answer: answer, userToConfirm: userToConfirm))
    }

    /// The answer to an event: the new State, with the new token when it rotated and the device
    /// token a flow gave the client to keep (`Context.giveDeviceToken`).
    static func answer(
        _ app: NavigationApp, _ tree: NavigationTree, id: String, version: Int, token: String?, deviceToken: String?,
        droppedLink: DroppedLink? = nil
    ) -> StoredAnswer {
        // In key order, as the State writes its members.
        var extra: [(key: String, value: JSONValue)] = []
        extra.reserveCapacity(5)
        if let deviceToken { extra.append(("deviceToken", .string(deviceToken))) }
        extra.append(("id", .string(id)))
        if let droppedLink {
            extra.append(("linkDropped", ["link": .string(droppedLink.link), "reason": .string(droppedLink.reason)]))
        }
        if let token { extra.append(("token", .string(token))) }
        extra.append(("version", .int(version)))
        return StoredAnswer(version: version, body: app.renderState(tree, sortedExtra: extra))
    }
}
