/// A complete HTTP request as the router and handlers see it: the body is fully gathered.
///
/// What the client sent is kept in one shared, immutable box: a request passes through the
/// responder, the router and its handler by value, and a copy of eight strings and collections
/// retained each of them (callgrind: a dozen copies an event).
package struct HTTPRequest: Sendable {
    private final class Message: Sendable {
        let method: String
        let path: String
        let query: [String: String]
        let headers: HTTPHeaders
        let body: [UInt8]
        let remoteAddress: String
        let clientAddress: String
        let version: String

        init(
            method: String, path: String, query: [String: String], headers: HTTPHeaders, body: [UInt8],
            remoteAddress: String, clientAddress: String, version: String
        ) {
            (self.method, self.path, self.query, self.headers, self.body) = (method, path, query, headers, body)
            (self.remoteAddress, self.clientAddress, self.version) = (remoteAddress, clientAddress, version)
        }
    }

    private let message: Message

    package var method: String { message.method }
    /// The path without the query string, percent-decoded by libmicrohttpd.
    package var path: String { message.path }
    package var query: [String: String] { message.query }
    package var headers: HTTPHeaders { message.headers }
    package var body: [UInt8] { message.body }
    /// The peer's numeric IP address (a proxy's, behind one), or an empty string when unknown.
    package var remoteAddress: String { message.remoteAddress }
    /// The client's address: the peer's, or taken from `X-Forwarded-For` when the peer is a
    /// trusted proxy (`ServerConfiguration.trustedProxies`). Use this one for throttling and logs.
    package var clientAddress: String { message.clientAddress }
    /// The request line's version: `HTTP/1.1` or `HTTP/1.0`.
    package var version: String { message.version }
    /// Values of the `{name}` segments of the route that matched, filled by the router.
    package var pathParameters = PathParameters()
    /// The id this server gave the request (its `X-Request-Id` answer header), for logs.
    package var requestID = ""

    package init(
        method: String, path: String, query: [String: String] = [:], headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [], remoteAddress: String = "", clientAddress: String? = nil, version: String = "HTTP/1.1"
    ) {
        message = Message(
            method: method, path: path, query: query, headers: headers, body: body, remoteAddress: remoteAddress,
            clientAddress: clientAddress ?? remoteAddress, version: version)
    }
}
