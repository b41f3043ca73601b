import Navigation
import Store

extension SessionService {
    /// The declared stage of an event: asks the coordinator that will handle it what it needs
    /// (`Coordinator.prepare(for:_:)`), with no connection, then on a reader if it reads. The
    /// work it asks for is thrown (`PasswordWorkNeeded`, `PreparationNeeded`) for
    /// `withPreparations` to do before asking again; the access it declares says where the flow
    /// runs. nil when nothing is declared, and when the question fails: a declaration never
    /// decides an outcome (a refusal, a statement, a write tried on the reader), the flow does.
    nonisolated(nonsending) func declaredAccess(
        _ request: EventRequest, current: ResidentSession.State, now: Int64, hint: ConnectionHints.Key, _ prepared: PreparedWork
    ) async throws -> EventAccess? {
        // A hint too: a coordinator may declare for one payload and not another (then the flow
        // runs more often than it needs to, no differently).
        guard !connectionHints.declaresNothing(hint) else { return nil }
        let (flows, event, tree, session) = (self.flows, request.event, current.tree, request.sessionID)
        let info = RequestInfo(
            clientAddress: request.clientAddress, now: now, deviceToken: request.deviceToken, language: request.language)
        let unused = UnusedConnection(dialect: store.dialect)
        var access = Result { try flows.declaredAccess(event, in: tree, on: unused, prepared, info, session: session) }
        if unused.wasNeeded {
            do {
                access = .success(
                    try await store.readOnly { try flows.declaredAccess(event, in: tree, on: $0, prepared, info, session: session) })
            } catch {
                access = .failure(error)
            }
        }
        switch access {
        case .success(nil):
            connectionHints.noteDeclaresNothing(hint, app: app)
            return nil
        case .success(let declared?): return declared
        case .failure(let error) where FlowRunner.asksForWork(error): throw error
        case .failure: return nil
        }
    }
}
