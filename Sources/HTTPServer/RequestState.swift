import Synchronization

/// What the server knows of one request while libmicrohttpd calls back for it.
///
/// Created on the first callback, released in the completion callback. Every field but
/// `response` is touched only by the worker thread that owns the connection; `response`
/// is handed from the handler's task to that thread, so a mutex guards it.
final class RequestState: Sendable {
    let method: String
    let path: String
    let remoteAddress: String
    // Owned by the connection's worker thread (see type comment); never shared across threads.
    nonisolated(unsafe) var headers = HTTPHeaders()
    nonisolated(unsafe) var query: [String: String] = [:]
    nonisolated(unsafe) var body: [UInt8] = []
    nonisolated(unsafe) var bodyTooLarge = false
    /// Bytes thrown away after the body crossed the limit.
    nonisolated(unsafe) var discardedBytes = 0
    nonisolated(unsafe) var dispatched = false
    /// A response was queued before the body was read (a refusal); the rest is discarded.
    nonisolated(unsafe) var answered = false
    private let response = Mutex<HTTPResponse?>(nil)

    init(method: String, path: String, remoteAddress: String) {
        self.method = method
        self.path = path
        self.remoteAddress = remoteAddress
    }

    func request(trusting proxies: TrustedProxies) -> HTTPRequest {
        HTTPRequest(
            method: method, path: path, query: query, headers: headers, body: body, remoteAddress: remoteAddress,
            clientAddress: proxies.clientAddress(peer: remoteAddress, forwardedFor: headers.values("X-Forwarded-For")))
    }

    func deliver(_ response: HTTPResponse) {
        self.response.withLock { $0 = response }
    }

    func takeResponse() -> HTTPResponse? {
        response.withLock { value in
            defer { value = nil }
            return value
        }
    }
}
