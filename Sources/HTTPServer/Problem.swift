/// An RFC 9457 problem: every error answer of the service is one, as `application/problem+json`.
///
/// `Problem` is an `Error`, so handlers can `throw` it and have it rendered as their response.
public struct Problem: Error, Sendable {
    public var status: Int
    public var title: String
    public var detail: String?
    /// A URI naming the problem type; `about:blank` when the status says it all.
    public var type: String
    /// Extension members, rendered beside the standard ones (for example `state` or `errors`).
    public var extensions: [String: any Encodable & Sendable]
    /// Extra header fields, for example `Allow` on a `405` or `Retry-After` on a `429`.
    public var headers: HTTPHeaders

    public init(
        status: Int, title: String? = nil, detail: String? = nil, type: String = "about:blank",
        extensions: [String: any Encodable & Sendable] = [:], headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.status = status
        self.title = title ?? HTTPStatus.reason(status)
        self.detail = detail
        self.type = type
        self.extensions = extensions
        self.headers = headers
    }

    /// The response carrying this problem.
    public var response: HTTPResponse {
        var headers = headers
        headers.set("Content-Type", "application/problem+json")
        return HTTPResponse(status: status, headers: headers, body: JSONCoding.encode(ProblemBody(problem: self)))
    }
}

/// Encodes a problem's standard members and its extensions into one JSON object.
private struct ProblemBody: Encodable {
    let problem: Problem

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in problem.extensions {
            try container.encode(value, forKey: Key(name))
        }
        try container.encode(problem.type, forKey: Key("type"))
        try container.encode(problem.title, forKey: Key("title"))
        try container.encode(problem.status, forKey: Key("status"))
        try container.encodeIfPresent(problem.detail, forKey: Key("detail"))
    }
}
