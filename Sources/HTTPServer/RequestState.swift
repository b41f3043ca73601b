/// What the server knows of one request while libmicrohttpd calls back for it.
///
/// Created on the first callback, released in the completion callback. Every field is touched
/// only by the worker thread that owns the connection (the handler reaches it through its
/// `ConnectionExecutor`, which guards what it shares).
final class RequestState: Sendable {
    let method: String
    let path: String
    let remoteAddress: String
    let version: String
    // Owned by the connection's worker thread (see type comment); never shared across threads.
    nonisolated(unsafe) var headers = HTTPHeaders()
    nonisolated(unsafe) var query: [String: String] = [:]
    nonisolated(unsafe) var body: [UInt8] = []
    nonisolated(unsafe) var bodyTooLarge = false
    /// Bytes thrown away after the body crossed the limit.
    nonisolated(unsafe) var discardedBytes = 0
    /// Set when the request went to its handler: where the handler runs and delivers its response.
    nonisolated(unsafe) var executor: ConnectionExecutor?
    /// A response was queued before the body was read (a refusal); the rest is discarded.
    nonisolated(unsafe) var answered = false

    init(method: String, path: String, remoteAddress: String, version: String) {
        self.method = method
        self.path = path
        self.remoteAddress = remoteAddress
        self.version = version
        headers.reserveCapacity(12)
    }

    func request(trusting proxies: TrustedProxies) -> HTTPRequest {
        HTTPRequest(
            method: method, path: path, query: query, headers: headers, body: body, remoteAddress: remoteAddress,
            clientAddress: proxies.clientAddress(peer: remoteAddress, forwardedFor: headers.values("X-Forwarded-For")),
            version: version)
    }
}
