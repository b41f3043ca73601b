import HTTPServer

// The kinds of problem the REST layer answers with, beside the HTTP layer's own. Each kind is
// declared once here; `api/openapi.yaml` (the `type` of `Problem`) and the README list them all.
extension ProblemType {
    /// 400: the body is not a JSON object, or lacks a member the call needs.
    static let invalidBody = ProblemType("invalid-body", status: 400, title: "Invalid body")
    /// 400: `Idempotency-Key` or `If-Match` cannot be meant (empty, too long, not visible ASCII).
    static let invalidHeader = ProblemType("invalid-header", status: 400, title: "Invalid header")
    /// 401: no bearer token, or one no live session has.
    static let unauthorized = ProblemType("unauthorized", status: 401, title: "Unauthorized")
    /// 404: no such session, or the token is another session's.
    static let sessionNotFound = ProblemType("session-not-found", status: 404, title: "No such session", reason: "not_found")
    /// 409: the event's screen is not the top screen, or other events kept overtaking it (the body carries `state`).
    static let staleScreen = ProblemType("stale-screen", status: 409, title: "Stale screen")
    /// 409: a request with this `Idempotency-Key` is still running.
    static let idempotencyKeyInFlight = ProblemType(
        "idempotency-key-in-flight", status: 409, title: "Idempotency-Key in flight")
    /// 412: `If-Match` does not name the current version (the body carries `state`).
    static let versionMismatch = ProblemType("version-mismatch", status: 412, title: "Version mismatch")
    /// 415: the body is not sent as JSON.
    static let unsupportedMediaType = ProblemType("unsupported-media-type", status: 415, title: "Unsupported Media Type")
    /// 422: the top screen does not accept the event.
    static let undeclaredEvent = ProblemType("undeclared-event", status: 422, title: "Event not accepted")
    /// 422: the payload does not have the event's shape (`errors` per field).
    static let invalidPayload = ProblemType("invalid-payload", status: 422, title: "Invalid payload")
    /// 422: no coordinator handled the event.
    static let unhandledEvent = ProblemType("unhandled-event", status: 422, title: "Event not handled", reason: "unhandled")
    /// 422: the event would grow the session past a limit.
    static let sessionLimit = ProblemType("session-limit", status: 422, title: "Session limit reached")
    /// 422: the `Idempotency-Key` was used for a different request.
    static let idempotencyKeyReused = ProblemType("idempotency-key-reused", status: 422, title: "Idempotency-Key reused")
    /// 422: a new session's `platform` is not one the server knows.
    static let invalidPlatform = ProblemType("invalid-platform", status: 422, title: "Invalid platform")
    /// 429: the app's flow refuses for now (failed sign-ins, registration tries); `Retry-After`.
    static let throttled = ProblemType("throttled", status: 429, title: "Throttled")
    /// 429: this client has as many password checks under way as it may; `Retry-After`.
    static let tooManyPasswordChecks = ProblemType(
        "too-many-password-checks", status: 429, title: "Too many password checks", reason: "password_jobs_per_client")
    /// 429: this client created sessions faster than it may; `Retry-After`.
    static let tooManySessions = ProblemType("too-many-sessions", status: 429, title: "Too many sessions")
    /// 429: this session or this client has as many live streams open as it may; `Retry-After`.
    static let tooManyStreams = ProblemType("too-many-streams", status: 429, title: "Too many streams")
    /// 500: the database refused a statement of the app's flow (a constraint, a syntax error): a bug,
    /// logged with its cause and statement; nothing changed, and retrying fails the same way.
    static let statementFailed = ProblemType("statement-failed", status: 500, title: "Statement refused")
    /// 503: storage failed (or cannot be read, for `/healthz`); nothing changed; retry.
    static let storageUnavailable = ProblemType("storage-unavailable", status: 503, title: "Storage unavailable")
    /// 503: the shared password-hashing queue is full; nothing changed; retry shortly.
    static let passwordQueueFull = ProblemType("password-queue-full", status: 503, title: "Password queue full")
    /// 503: this node holds as many live streams as it may (`--max-streams`); retry on another node.
    static let streamCapacity = ProblemType("stream-capacity", status: 503, title: "Stream capacity reached")

    /// Every kind of problem the server answers with.
    static let all: [ProblemType] =
        httpLayer + [
            .invalidBody, .invalidHeader, .unauthorized, .sessionNotFound, .staleScreen, .idempotencyKeyInFlight,
            .versionMismatch, .unsupportedMediaType, .undeclaredEvent, .invalidPayload, .unhandledEvent, .sessionLimit,
            .idempotencyKeyReused, .invalidPlatform, .throttled, .tooManyPasswordChecks, .tooManySessions,
            .tooManyStreams, .statementFailed, .storageUnavailable, .passwordQueueFull, .streamCapacity,
        ] + links + journal
}
