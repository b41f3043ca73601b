import Navigation

/// Why a session call failed, each with the status DESIGN §4 gives it.
package enum SessionError: Error {
    /// 401: no token, or a token no live session has.
    case unauthorized
    /// 404: no such session, or the token is another session's.
    case notFound
    /// 409: the event came from a screen that is not on top; carries the current state.
    case staleScreen(state: [UInt8], detail: String)
    /// 412: `If-Match` names another version; carries the current state.
    case versionMismatch(state: [UInt8], current: Int)
    /// 429: the flow refuses for now.
    case throttled(EventThrottled)
    /// 422: the `Idempotency-Key` was used for a different request.
    case idempotencyKeyReused
    /// 409: a request with the same `Idempotency-Key` is still running.
    case idempotencyKeyInFlight
    /// 503: storage failed; nothing changed.
    case storageUnavailable(String)
    /// 429: this client has as many password checks waiting or running as it may.
    case tooManyPasswordChecks(retryAfterSeconds: Int)
    /// 429: this client created sessions faster than it may.
    case tooManySessions(retryAfterSeconds: Int)
}

extension SessionError {
    /// The label this refusal is counted under in `/metrics`.
    var reason: String {
        switch self {
        case .unauthorized: "unauthorized"
        case .notFound: "not_found"
        case .staleScreen: "stale_screen"
        case .versionMismatch: "version_mismatch"
        case .throttled: "throttled"
        case .idempotencyKeyReused: "idempotency_key_reused"
        case .idempotencyKeyInFlight: "idempotency_key_in_flight"
        case .storageUnavailable: "storage_unavailable"
        case .tooManyPasswordChecks: "password_jobs_per_client"
        case .tooManySessions: "too_many_sessions"
        }
    }
}

extension EventRejection {
    /// The label this rejection is counted under in `/metrics`.
    var reason: String {
        switch self {
        case .notTopScreen: "stale_screen"
        case .undeclaredEvent: "undeclared_event"
        case .invalidPayload: "invalid_payload"
        case .unhandled: "unhandled"
        case .sessionLimit: "session_limit"
        }
    }
}
