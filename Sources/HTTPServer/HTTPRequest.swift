/// A complete HTTP request as the router and handlers see it: the body is fully gathered.
package struct HTTPRequest: Sendable {
    package var method: String
    /// The path without the query string, percent-decoded by libmicrohttpd.
    package var path: String
    package var query: [String: String]
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// The peer's numeric IP address (a proxy's, behind one), or an empty string when unknown.
    package var remoteAddress: String
    /// The client's address: the peer's, or taken from `X-Forwarded-For` when the peer is a
    /// trusted proxy (`ServerConfiguration.trustedProxies`). Use this one for throttling and logs.
    package var clientAddress: String
    /// The request line's version: `HTTP/1.1` or `HTTP/1.0`.
    package var version: String = "HTTP/1.1"
    /// Values of the `{name}` segments of the route that matched, filled by the router.
    package var pathParameters: [String: String] = [:]

    package init(
        method: String, path: String, query: [String: String] = [:], headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [], remoteAddress: String = "", clientAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.clientAddress = clientAddress ?? remoteAddress
    }
}
