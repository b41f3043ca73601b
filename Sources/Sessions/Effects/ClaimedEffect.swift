import Navigation
import SessionStorage
import Secrets

/// An effect a node leased to run (`SessionPersistence.claimDueEffects`).
struct ClaimedEffect: Sendable {
    /// Also its idempotency key.
    let id: String
    let session: String
    /// The coordinator that asked, then its ancestors (`RequestedEffect.coordinators`).
    let coordinators: [CoordinatorID]
    let name: String
    let request: JSONValue
    /// This run's number: 1 for the first.
    let attempt: Int
    /// The trace of the event that asked (`Traced.carrier()`), which the run continues.
    let trace: [String: String]

    /// The effect as leased, its texts read.
    init(_ leased: LeasedEffect) {
        id = leased.id
        session = leased.session
        coordinators = leased.coordinators.split(separator: ",").compactMap { Int($0) }
        name = leased.name
        request = (try? JSONValue.parse(Array(leased.request.utf8))) ?? .null
        attempt = leased.attempt
        trace =
            leased.trace.flatMap { try? JSONValue.parse(Array($0.utf8)).objectValue }?.compactMapValues(\.stringValue) ?? [:]
    }
}

extension RequestedEffect {
    /// The outbox's row of this effect, asked for by an event of `session` whose trace is `trace`.
    func row(session: String, trace: [String: String]) -> EffectRow {
        EffectRow(
            id: Tokens.random(bytes: 16), session: session, coordinators: coordinators.map(String.init).joined(separator: ","),
            name: name, request: request.serializedString,
            trace: trace.isEmpty
                ? nil : JSONValue.object(trace.mapValues(JSONValue.string)).serializedString)
    }
}
