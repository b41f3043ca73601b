import HTTPServer
import Navigation
import Secrets
import Sessions

// What each error of the session service and the runtime answers with: its kind (status, type,
// title, metric reason) and what this occurrence adds. One switch per error type, here only.

extension SessionError: ProblemError {
    package var problem: Problem {
        switch self {
        case .unauthorized:
            Problem(
                .unauthorized, detail: "A valid bearer token for this session is required.",
                headers: HTTPHeaders([("WWW-Authenticate", "Bearer")]))
        case .notFound:
            Problem(.sessionNotFound, detail: "No such session.")
        // The State a 409 or 412 carries comes with its version as `ETag`, as a 200's does.
        case .staleScreen(let state, let version, let detail):
            Problem(
                .staleScreen, detail: detail, extensions: ["state": RawJSON(bytes: state)],
                headers: HTTPHeaders([("ETag", "\"\(version)\"")]))
        case .versionMismatch(let state, let current):
            Problem(
                .versionMismatch, detail: "If-Match does not name the current version (\(current)).",
                extensions: ["state": RawJSON(bytes: state)], headers: HTTPHeaders([("ETag", "\"\(current)\"")]))
        case .throttled(let throttled):
            throttled.problem
        case .idempotencyKeyReused:
            Problem(
                .idempotencyKeyReused, detail: "This Idempotency-Key was used for a different request.",
                extensions: ["errors": [FieldError(field: "Idempotency-Key", message: "was used for a different request")]])
        case .idempotencyKeyInFlight:
            Problem(.idempotencyKeyInFlight, detail: "A request with this Idempotency-Key is still running; retry later.")
        case .storageUnavailable:
            Problem(
                .storageUnavailable, detail: "Storage is unavailable; nothing was changed.",
                headers: HTTPHeaders([("Retry-After", "1")]))
        case .shuttingDown:
            Problem(
                .shuttingDown, detail: "The server is shutting down; nothing was changed. Retry on another connection.",
                headers: HTTPHeaders([("Retry-After", "1")]))
        case .tooManyPasswordChecks(let seconds):
            Problem(
                .tooManyPasswordChecks,
                detail: "Too many password checks from this client are under way; retry shortly. Nothing was changed.",
                headers: HTTPHeaders([("Retry-After", String(seconds))]))
        case .tooManySessions(let seconds):
            Problem(
                .tooManySessions, detail: "Too many sessions created from this client; retry later.",
                headers: HTTPHeaders([("Retry-After", String(seconds))]))
        }
    }
}

extension EventRejection: ProblemError {
    package var problem: Problem {
        switch self {
        case .notTopScreen: Problem(.staleScreen, detail: detail)
        case .undeclaredEvent: Problem(.undeclaredEvent, detail: detail, extensions: ["errors": fieldErrors])
        case .invalidPayload: Problem(.invalidPayload, detail: detail, extensions: ["errors": fieldErrors])
        case .unhandled: Problem(.unhandledEvent, detail: detail, extensions: ["errors": fieldErrors])
        case .sessionLimit: Problem(.sessionLimit, detail: detail, extensions: ["errors": fieldErrors])
        }
    }
}

extension EventThrottled: ProblemError {
    package var problem: Problem {
        Problem(.throttled, detail: detail, headers: HTTPHeaders([("Retry-After", String(retryAfterSeconds))]))
    }
}

extension PasswordPoolBusy: ProblemError {
    package var problem: Problem {
        Problem(
            .passwordQueueFull, detail: "Too many password checks are waiting; retry shortly. Nothing was changed.",
            headers: HTTPHeaders([("Retry-After", String(retryAfterSeconds))]))
    }
}

extension StatementFailed: ProblemError {
    package var problem: Problem {
        // The cause and the statement go to the log (the router reports every 500), not to the client.
        Problem(
            .statementFailed,
            detail: "The app's flow failed: the database refused one of its statements. Nothing was changed; "
                + "retrying will fail the same way.")
    }
}

/// Already serialized JSON, embedded as is in a problem (the current state).
struct RawJSON: Encodable, Sendable {
    let bytes: [UInt8]

    func encode(to encoder: any Encoder) throws {
        let value = try JSONValue.parse(bytes)
        try value.encode(to: encoder)
    }
}
