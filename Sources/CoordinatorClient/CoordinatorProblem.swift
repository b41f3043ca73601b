/// An error answer of the server (`application/problem+json`, RFC 9457), as a Swift error.
/// Tell problems apart by `kind` (its stable `type`), never by `title` or `detail`.
public struct CoordinatorProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem: `urn:coordinatord:problem:<name>`.
    public var kind: Kind
    public var status: Int
    public var title: String
    /// For a person; may change between releases.
    public var detail: String?
    /// What was wrong per field (`invalid-body`, `invalid-payload`, `undeclared-event`, ...).
    public var errors: [FieldError]
    /// The current State a `409 stale-screen` or `412 version-mismatch` carries; the client has
    /// adopted it by the time this error reaches the caller.
    public var state: SessionState?
    /// How long the server asked to wait (`Retry-After`), for `429` and `503`.
    public var retryAfter: Duration?

    public init(
        kind: Kind, status: Int, title: String, detail: String? = nil, errors: [FieldError] = [], state: SessionState? = nil,
        retryAfter: Duration? = nil
    ) {
        (self.kind, self.status, self.title, self.detail) = (kind, status, title, detail)
        (self.errors, self.state, self.retryAfter) = (errors, state, retryAfter)
    }

    public var description: String {
        "\(status) \(kind.name)" + (detail.map { ": \($0)" } ?? "")
            + (errors.isEmpty ? "" : " " + errors.map { "\($0.field ?? "-"): \($0.message)" }.joined(separator: "; "))
    }

    /// A field's error in a problem.
    public struct FieldError: Sendable, Hashable {
        public var field: String?
        public var message: String

        public init(field: String?, message: String) { (self.field, self.message) = (field, message) }
    }

    /// A problem's `type`. The kinds the server has today are constants; a newer server's kind
    /// arrives as its own value, so a switch keeps a `default`.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public static let prefix = "urn:coordinatord:problem:"
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind named `name` (`stale-screen`).
        public init(name: String) { rawValue = Self.prefix + name }

        /// The part after the prefix (`stale-screen`), or the whole type when it has no prefix.
        public var name: String { rawValue.hasPrefix(Self.prefix) ? String(rawValue.dropFirst(Self.prefix.count)) : rawValue }
        public var description: String { name }

        public static let malformedRequest = Kind(name: "malformed-request")
        public static let invalidBody = Kind(name: "invalid-body")
        public static let invalidHeader = Kind(name: "invalid-header")
        public static let unauthorized = Kind(name: "unauthorized")
        public static let noSuchRoute = Kind(name: "no-such-route")
        public static let sessionNotFound = Kind(name: "session-not-found")
        public static let methodNotAllowed = Kind(name: "method-not-allowed")
        public static let staleScreen = Kind(name: "stale-screen")
        public static let idempotencyKeyInFlight = Kind(name: "idempotency-key-in-flight")
        public static let lengthRequired = Kind(name: "length-required")
        public static let versionMismatch = Kind(name: "version-mismatch")
        public static let contentTooLarge = Kind(name: "content-too-large")
        public static let unsupportedMediaType = Kind(name: "unsupported-media-type")
        public static let undeclaredEvent = Kind(name: "undeclared-event")
        public static let invalidPayload = Kind(name: "invalid-payload")
        public static let unhandledEvent = Kind(name: "unhandled-event")
        public static let sessionLimit = Kind(name: "session-limit")
        public static let idempotencyKeyReused = Kind(name: "idempotency-key-reused")
        public static let invalidPlatform = Kind(name: "invalid-platform")
        public static let throttled = Kind(name: "throttled")
        public static let tooManyPasswordChecks = Kind(name: "too-many-password-checks")
        public static let tooManySessions = Kind(name: "too-many-sessions")
        public static let internalError = Kind(name: "internal-error")
        public static let statementFailed = Kind(name: "statement-failed")
        public static let unsupportedTransferCoding = Kind(name: "unsupported-transfer-coding")
        public static let storageUnavailable = Kind(name: "storage-unavailable")
        public static let passwordQueueFull = Kind(name: "password-queue-full")
        public static let shuttingDown = Kind(name: "shutting-down")
        public static let unknownLink = Kind(name: "unknown-link")
        public static let linkTargetNotFound = Kind(name: "link-target-not-found")
        public static let linkForbidden = Kind(name: "link-forbidden")
        public static let invalidLink = Kind(name: "invalid-link")
        public static let unhandledLink = Kind(name: "unhandled-link")
        public static let versionNotRetained = Kind(name: "version-not-retained")
        public static let sessionWouldStartOver = Kind(name: "session-would-start-over")
        public static let invalidQuery = Kind(name: "invalid-query")
        public static let tooManyStreams = Kind(name: "too-many-streams")
        public static let streamCapacity = Kind(name: "stream-capacity")
        public static let operatorUnauthorized = Kind(name: "operator-unauthorized")
        public static let operatorAccessDisabled = Kind(name: "operator-access-disabled")

        /// Every kind above: those the server sends today.
        public static let known: [Kind] = [
            .malformedRequest, .invalidBody, .invalidHeader, .unauthorized, .noSuchRoute, .sessionNotFound,
            .methodNotAllowed, .staleScreen, .idempotencyKeyInFlight, .lengthRequired, .versionMismatch,
            .contentTooLarge, .unsupportedMediaType, .undeclaredEvent, .invalidPayload, .unhandledEvent, .sessionLimit,
            .idempotencyKeyReused, .invalidPlatform, .throttled, .tooManyPasswordChecks, .tooManySessions,
            .internalError, .statementFailed, .unsupportedTransferCoding, .storageUnavailable, .passwordQueueFull,
            .shuttingDown, .unknownLink, .linkTargetNotFound, .linkForbidden, .invalidLink, .unhandledLink,
            .versionNotRetained, .sessionWouldStartOver, .invalidQuery, .tooManyStreams, .streamCapacity, .operatorUnauthorized, .operatorAccessDisabled,
        ]
    }

    /// The session is gone for this client: its token is dead (`401`: signed out elsewhere, a
    /// password changed on another device, expired) or the session is unknown (`404`).
    public var endsSession: Bool { kind == .unauthorized || kind == .sessionNotFound }

    /// Retrying the same request later may succeed and changes nothing meanwhile (`429`, `503`,
    /// and a first request with the same `Idempotency-Key` still running).
    public var isTransient: Bool { status == 429 || status == 503 || kind == .idempotencyKeyInFlight }
}

/// A failure that is not a problem the server answered.
public enum CoordinatorClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request may not have reached the server, or its answer was lost, on every attempt.
    case unreachable(String)
    /// The server answered something this client cannot read (a status and the start of the body).
    case unexpectedAnswer(status: Int, body: String)
    /// The call needs a session: call `start()` first (or again, after the session ended).
    case noSession
    /// There is no top screen to send the event from.
    case noTopScreen

    public var description: String {
        switch self {
        case .unreachable(let reason): "the server could not be reached: \(reason)"
        case .unexpectedAnswer(let status, let body): "unexpected answer \(status): \(body)"
        case .noSession: "no session: call start() first"
        case .noTopScreen: "the State has no top screen"
        }
    }
}
