/// Why an incoming event was not applied. The tree is unchanged whenever one is thrown.
public enum EventRejection: Error, Sendable, Hashable {
    /// The event names a screen that is not the top screen (a stale tap).
    case notTopScreen(screen: ScreenID, top: ScreenID?)
    /// The top screen does not accept this event now; `accepted` lists what it does accept.
    case undeclaredEvent(event: String, accepted: [String])
    /// The payload does not match the event's declaration.
    case invalidPayload([FieldError])
    /// No coordinator on the chain from the screen's owner to the root handled the event.
    case unhandled(event: String)
    /// Applying the event would grow the session past a limit (`NavigationLimits`).
    case sessionLimit(String)

    /// A sentence for the `detail` of a problem.
    public var detail: String {
        switch self {
        case .notTopScreen(let screen, let top):
            "Screen \(screen) is not the top screen\(top.map { " (\($0) is)" } ?? "")."
        case .undeclaredEvent(let event, let accepted):
            "The top screen does not accept \"\(event)\"; it accepts: \(accepted.joined(separator: ", "))."
        case .invalidPayload(let errors):
            "The payload is invalid: " + errors.map { "\($0.field) \($0.message)" }.joined(separator: "; ") + "."
        case .unhandled(let event):
            "No coordinator handled \"\(event)\"."
        case .sessionLimit(let limit):
            "The session has reached its limit: \(limit). Go back or close something first."
        }
    }

    /// Field errors for the problem's `errors` member.
    public var fieldErrors: [FieldError] {
        switch self {
        case .invalidPayload(let errors): errors
        case .undeclaredEvent(let event, let accepted):
            [FieldError(field: "event", message: "\"\(event)\" is not accepted; accepted: \(accepted.joined(separator: ", "))")]
        case .unhandled(let event): [FieldError(field: "event", message: "\"\(event)\" was not handled")]
        case .notTopScreen: [FieldError(field: "screen", message: "is not the top screen")]
        case .sessionLimit(let limit): [FieldError(field: "event", message: "would exceed \(limit)")]
        }
    }
}

/// A programming error in a flow: it left nothing on screen, or used an unknown screen or tab.
public struct NavigationError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    /// A navigation error saying `description`.
    public init(_ description: String) { self.description = description }
}
