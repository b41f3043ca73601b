/// A kind of problem the server answers with, declared once: its status, the stable `type` URI
/// clients tell it apart by (`urn:coordinatord:problem:<name>`), its title, and the reason it is
/// counted under in `/metrics`. Every `Problem` is of one kind; two kinds never share a name.
package struct ProblemType: Sendable, Hashable, CustomStringConvertible {
    /// What follows the scheme in `uri` (`stale-screen`).
    package let name: String
    /// The HTTP status of every problem of this kind.
    package let status: Int
    /// A short summary of the kind, the same for every occurrence (RFC 9457 `title`).
    package let title: String
    /// The label this kind is counted under in `/metrics` (`stale_screen`).
    package let reason: String

    /// The kind `name`, answered with `status`; its metric reason is `name` with `_` for `-`
    /// unless `reason` says otherwise (a label dashboards already know).
    package init(_ name: String, status: Int, title: String, reason: String? = nil) {
        self.name = name
        self.status = status
        self.title = title
        self.reason = reason ?? name.replacingOccurrences(of: "-", with: "_")
    }

    /// The prefix of every problem type's URI.
    package static let scheme = "urn:coordinatord:problem:"

    /// The problem's `type` member.
    package var uri: String { Self.scheme + name }

    package var description: String { uri }
}

// The kinds the HTTP layer itself answers with, before or around any handler.
extension ProblemType {
    /// 400: the request's framing is not HTTP/1.1 as a proxy would read it, or it has too many query arguments.
    package static let malformedRequest = ProblemType("malformed-request", status: 400, title: "Malformed request")
    /// 404: no route has this path.
    package static let noSuchRoute = ProblemType("no-such-route", status: 404, title: "Not Found")
    /// 405: the path has routes, for other methods (`Allow` lists them).
    package static let methodNotAllowed = ProblemType("method-not-allowed", status: 405, title: "Method Not Allowed")
    /// 411: a chunked body; send it with `Content-Length`.
    package static let lengthRequired = ProblemType("length-required", status: 411, title: "Length Required")
    /// 413: the body is over the limit.
    package static let contentTooLarge = ProblemType("content-too-large", status: 413, title: "Content Too Large")
    /// 500: a bug; its cause is logged, the client is told nothing more.
    package static let internalError = ProblemType(
        "internal-error", status: 500, title: "Internal Server Error", reason: "error")
    /// 501: a transfer coding the server does not implement.
    package static let unsupportedTransferCoding = ProblemType(
        "unsupported-transfer-coding", status: 501, title: "Transfer coding not implemented")
    /// 503: the server is shutting down; retry (on another connection, or another node).
    package static let shuttingDown = ProblemType("shutting-down", status: 503, title: "Shutting down")

    /// Every kind the HTTP layer answers with.
    package static let httpLayer: [ProblemType] = [
        .malformedRequest, .noSuchRoute, .methodNotAllowed, .lengthRequired, .contentTooLarge, .internalError,
        .unsupportedTransferCoding, .shuttingDown,
    ]
}
