import HTTPServer
import Logging
import Secrets

/// The operator credential: a key of its own (never a user's token, never a default), checked in
/// constant time on every operator request; every request it lets through is logged.
struct OperatorAccess: Sendable {
    /// SHA-256 of the key, so that keys of any length compare in constant time; nil: no key.
    private let keyHash: [UInt8]?
    private let logger: Logger

    init(key: String?, logger: Logger) {
        self.keyHash = key.map(Tokens.sha256)
        self.logger = logger
    }

    /// Refuses `request` unless it carries the operator key (`Authorization: Bearer <key>`); logs it.
    func check(_ request: HTTPRequest) throws {
        guard let keyHash else {
            throw Problem(.operatorAccessDisabled, detail: "This server has no operator key (--operator-key-file).")
        }
        guard let key = request.bearerToken, Tokens.constantTimeEquals(Tokens.sha256(key), keyHash) else {
            logger.warning(
                "operator request refused",
                metadata: ["path": "\(LogText.escaped(request.path))", "client": "\(request.clientAddress)"])
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
}
