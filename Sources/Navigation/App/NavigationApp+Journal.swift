/// What a session's journal keeps of an event's payload.
public struct JournaledPayload: Sendable, Equatable {
    /// The payload without its secret fields (and without members the event does not declare).
    public let payload: JSONValue
    /// The names of the fields left out because they are secret, in order.
    public let redacted: [String]

    /// `payload` kept, with the names of the members left out of it.
    public init(payload: JSONValue, redacted: [String]) {
        self.payload = payload
        self.redacted = redacted
    }
}

extension NavigationApp {
    /// `payload` of the event `event` sent from a screen named `screenName`, as a journal may keep
    /// it: every field the event declares as a password (`@Password`) or secret (`@Secret`) is
    /// left out, and so is any member the event does not declare (it could be anything). Only the
    /// payload's top-level fields are declared, so a secret must be a top-level field.
    public func journaled(payload: JSONValue, event: String, screenName: String?) -> JournaledPayload {
        // `open` looked at on its own: the list with it appended was made afresh every event.
        let declaration =
            SystemEvent.all.first(where: { $0.name == event })
            ?? (!links.isEmpty && event == SystemEvent.open.name ? SystemEvent.open : nil)
            ?? screenName.flatMap { screens[$0]?.event(named: event) }
        guard case .object(let members) = payload else {
            // A payload that is not an object has no fields: kept only when it is nothing.
            return JournaledPayload(payload: .null, redacted: payload == .null ? [] : ["(payload)"])
        }
        guard let declaration else { return JournaledPayload(payload: .object([:]), redacted: members.keys.sorted()) }
        guard !members.isEmpty else { return JournaledPayload(payload: payload, redacted: []) }
        var kept: [String: JSONValue] = [:]
        var redacted: [String] = []
        var found = 0
        for field in declaration.fields {
            guard let value = members[field.name] else { continue }
            found += 1
            if field.isSecret { redacted.append(field.name) } else { kept[field.name] = value }
        }
        // Undeclared members are dropped too (named, so the journal says something was left out).
        if found < members.count {
            redacted += members.keys.filter { key in !declaration.fields.contains { $0.name == key } }.sorted()
        }
        return JournaledPayload(payload: .object(kept), redacted: redacted)
    }
}
