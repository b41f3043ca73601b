import Navigation

/// Why a session call failed. Each case is one kind of problem; the REST layer gives each its
/// status and problem type (`SessionError+Problem`).
package enum SessionError: Error {
    /// No token, or a token no live session has.
    case unauthorized
    /// No such session, or the token is another session's.
    case notFound
    /// The event came from a screen that is not on top; carries the current state and its version.
    case staleScreen(state: [UInt8], version: Int, detail: String)
    /// `If-Match` names another version; carries the current state.
    case versionMismatch(state: [UInt8], current: Int)
    /// The flow refuses for now.
    case throttled(EventThrottled)
    /// The `Idempotency-Key` was used for a different request.
    case idempotencyKeyReused
    /// A request with the same `Idempotency-Key` is still running.
    case idempotencyKeyInFlight
    /// Storage failed; nothing changed.
    case storageUnavailable(String)
    /// The store is closed: the server is shutting down; nothing changed.
    case shuttingDown
    /// This client has as many password checks waiting or running as it may.
    case tooManyPasswordChecks(retryAfterSeconds: Int)
    /// This client created sessions faster than it may.
    case tooManySessions(retryAfterSeconds: Int)
}
