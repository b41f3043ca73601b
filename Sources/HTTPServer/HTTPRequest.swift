/// A complete HTTP request as the router and handlers see it: the body is fully gathered.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string, percent-decoded by libmicrohttpd.
    public var path: String
    public var query: [String: String]
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The peer's numeric IP address (a proxy's, behind one), or an empty string when unknown.
    public var remoteAddress: String
    /// The client's address: the peer's, or taken from `X-Forwarded-For` when the peer is a
    /// trusted proxy (`ServerConfiguration.trustedProxies`). Use this one for throttling and logs.
    public var clientAddress: String
    /// The request line's version: `HTTP/1.1` or `HTTP/1.0`.
    public var version: String = "HTTP/1.1"
    /// Values of the `{name}` segments of the route that matched, filled by the router.
    public var pathParameters: [String: String] = [:]

    public init(
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
