import HTTPServer
import Logging
import Secrets

/// The operator credential: a key of its own (never a user's token, never a default), checked in
/// constant time on every operator request; every request it lets through is logged.
struct OperatorAccess: Sendable {
    /// SHA-256 of the key, so that keys of any length compare in constant time; nil: no key.
    private let keyHash: [UInt8]?
    private let logger: Logger
    /// Seconds now, for the refusals' windows (the service's clock: manual in tests).
    private let now: @Sendable () -> Int64
    private let refusals = OperatorRefusals()

    init(key: String?, logger: Logger, now: @escaping @Sendable () -> Int64) {
        self.keyHash = key.map(Tokens.sha256)
        self.logger = logger
        self.now = now
    }

    /// Refuses `request` unless it carries the operator key (`Authorization: Bearer <key>`); logs
    /// it. A client refused too often in a minute is throttled (429), even with the right key.
    func check(_ request: HTTPRequest) throws {
        guard let keyHash else {
            throw Problem(.operatorAccessDisabled, detail: "This server has no operator key (--operator-key-file).")
        }
        if let retryAfter = refusals.isThrottled(client: request.clientAddress, now: now()) {
            throw Self.throttled(retryAfter: retryAfter)
        }
        guard let key = request.bearerToken, Tokens.constantTimeEquals(Tokens.sha256(key), keyHash) else {
            switch refusals.refused(client: request.clientAddress, now: now()) {
            case .throttle(let retryAfter):
                logger.warning(
                    "operator requests throttled",
                    metadata: ["client": "\(request.clientAddress)", "refused_in_a_minute": "\(refusals.allowed + 1)"])
                throw Self.throttled(retryAfter: retryAfter)
            case .refuse(let log):
                if log {
                    logger.warning(
                        "operator request refused",
                        metadata: ["path": "\(LogText.escaped(request.path))", "client": "\(request.clientAddress)"])
                }
            }
            throw Problem(
                .operatorUnauthorized, detail: "The operator key is required (Authorization: Bearer <operator key>).",
                headers: HTTPHeaders([("WWW-Authenticate", "Bearer realm=\"operator\"")]))
        }
        // An audit line: at warning, so that it stays when the log is turned down to warnings.
        logger.warning(
            "operator read",
            metadata: [
                "path": "\(LogText.escaped(request.path))", "session": "\(LogText.escaped(request.pathParameters["id"] ?? ""))",
                "client": "\(request.clientAddress)",
            ])
    }

    private static func throttled(retryAfter: Int64) -> Problem {
        Problem(
            .throttled, detail: "Too many refused operator requests from this client; retry later.",
            headers: HTTPHeaders([("Retry-After", "\(retryAfter)")]))
    }

    /// Why `key` cannot be an operator key, or nil when it can: 32 characters at least, no
    /// spaces or control characters, and not a short pattern repeated (at least 8 different
    /// characters: a random key of 32 hex digits has about 14).
    static func weakness(of key: String) -> String? {
        if key.count < 32 { return "must be at least 32 characters" }
        if key.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "must not contain spaces or control characters"
        }
        if Set(key).count < 8 {
            return "must be random (it has fewer than 8 different characters); make one with `openssl rand -base64 32`"
        }
        return nil
    }
}
