/// An effect a coordinator asked for, finished: handed to that coordinator's `effectFinished`.
public struct EffectResult: Sendable, Hashable {
    /// How it ended.
    public enum Outcome: Sendable, Hashable {
        /// The handler returned this (the effect's `Result`, encoded).
        case succeeded(JSONValue)
        /// Every attempt failed, or one failed for good; `reason` is the last failure's.
        case failed(reason: String, attempts: Int)
    }

    /// The effect's idempotency key (the handler got it too): unique, stable across retries.
    public let id: String
    /// The effect's `name`.
    public let name: String
    /// The request as the flow made it (the effect's value, encoded).
    public let request: JSONValue
    /// How it ended.
    public let outcome: Outcome

    public init(id: String, name: String, request: JSONValue, outcome: Outcome) {
        self.id = id
        self.name = name
        self.request = request
        self.outcome = outcome
    }

    /// The request and its result typed as effect `E`, or nil when this is another effect's result.
    /// Throws when the stored request or result no longer decodes as `E` (its shape changed).
    public func `as`<E: Effect>(_ type: E.Type) throws -> (request: E, result: Result<E.Result, EffectFailure>)? {
        guard name == E.name else { return nil }
        let request = try JSONValue.decode(E.self, from: self.request)
        switch outcome {
        case .succeeded(let value):
            return (request, .success(try JSONValue.decode(E.Result.self, from: value)))
        case .failed(let reason, _):
            return (request, .failure(.permanent(reason)))
        }
    }

    /// The result as the journal and the inspector show it (`open`'s link is kept likewise).
    package var journaled: JSONValue {
        var members: [String: JSONValue] = ["effect": .string(name), "id": .string(id), "request": request]
        switch outcome {
        case .succeeded(let value):
            members["outcome"] = "succeeded"
            members["result"] = value
        case .failed(let reason, let attempts):
            members["outcome"] = "failed"
            members["reason"] = .string(reason)
            members["attempts"] = .int(attempts)
        }
        return .object(members)
    }
}

/// An effect's result on its way to the coordinator that asked for it.
package struct EffectDelivery: Sendable, Hashable {
    /// The coordinator that asked, then its ancestors to the root: the first still running gets
    /// the result (ids are never reused within a session).
    package let coordinators: [CoordinatorID]
    package let result: EffectResult

    package init(coordinators: [CoordinatorID], result: EffectResult) {
        self.coordinators = coordinators
        self.result = result
    }

    /// The delivery as its event's payload (and journal entry) holds it: the result and the
    /// coordinator it went to, from which a replay makes it again (`init(journaled:)`).
    package var journaled: JSONValue {
        var members = result.journaled.objectValue ?? [:]
        members["coordinators"] = .array(coordinators.map(JSONValue.int))
        return .object(members)
    }

    /// The delivery a journal entry's payload (`journaled`) holds, or nil when it holds none.
    package init?(journaled payload: JSONValue) {
        guard let coordinators = payload["coordinators"]?.arrayValue?.compactMap(\.intValue), let id = payload["id"]?.stringValue,
            let name = payload["effect"]?.stringValue, let request = payload["request"]
        else { return nil }
        let outcome: EffectResult.Outcome
        switch payload["outcome"]?.stringValue {
        case "succeeded": outcome = .succeeded(payload["result"] ?? .null)
        case "failed":
            outcome = .failed(reason: payload["reason"]?.stringValue ?? "", attempts: payload["attempts"]?.intValue ?? 0)
        default: return nil
        }
        self.init(coordinators: coordinators, result: EffectResult(id: id, name: name, request: request, outcome: outcome))
    }

    /// The event name the journal shows a delivery under (parenthesised, as `(start)`: no
    /// screen sent it, and no app event can be named so).
    package static let eventName = "(effect)"
}

/// An effect a flow asked for, as its event's commit stores it.
public struct RequestedEffect: Sendable, Hashable {
    /// The effect's `name`.
    public let name: String
    /// The effect's value, encoded.
    public let request: JSONValue
    /// The coordinator whose `effectFinished` gets the result, then its ancestors up to the root:
    /// the first still running gets it.
    public let coordinators: [CoordinatorID]
}

/// An effect's result found the coordinator that asked for it gone, and all its ancestors (the
/// session started over): nobody is left to tell, and the session does not change.
package struct EffectUndeliverable: Error {}
