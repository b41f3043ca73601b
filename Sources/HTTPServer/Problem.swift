/// An RFC 9457 problem: every error answer of the service is one, as `application/problem+json`.
///
/// `Problem` is an `Error`, so handlers can `throw` it and have it rendered as their response.
/// Its kind (`type`) gives its status, `type` URI and title.
package struct Problem: Error, Sendable {
    /// The kind of problem: status, `type` URI, title.
    package var type: ProblemType
    /// What this occurrence says, for a person.
    package var detail: String?
    /// Extension members, rendered beside the standard ones (for example `state` or `errors`).
    package var extensions: [String: any Encodable & Sendable]
    /// Extra header fields, for example `Allow` on a `405` or `Retry-After` on a `429`.
    package var headers: HTTPHeaders

    /// A problem of kind `type`, saying `detail`.
    package init(
        _ type: ProblemType, detail: String? = nil, extensions: [String: any Encodable & Sendable] = [:],
        headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.type = type
        self.detail = detail
        self.extensions = extensions
        self.headers = headers
    }

    /// The HTTP status, the kind's.
    package var status: Int { type.status }

    /// The response carrying this problem.
    package var response: HTTPResponse {
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
        try container.encode(problem.type.uri, forKey: Key("type"))
        try container.encode(problem.type.title, forKey: Key("title"))
        try container.encode(problem.status, forKey: Key("status"))
        try container.encodeIfPresent(problem.detail, forKey: Key("detail"))
    }
}
