/// A complete HTTP request as the router and handlers see it: the body is fully gathered.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string, percent-decoded by libmicrohttpd.
    public var path: String
    public var query: [String: String]
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The client's numeric IP address, or an empty string when unknown.
    public var remoteAddress: String
    /// Values of the `{name}` segments of the route that matched, filled by the router.
    public var pathParameters: [String: String] = [:]

    public init(
        method: String, path: String, query: [String: String] = [:], headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [], remoteAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }
}
