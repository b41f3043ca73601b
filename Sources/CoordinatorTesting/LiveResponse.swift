import Navigation

/// An answer of a `LiveServer`.
public struct LiveResponse: Sendable {
    /// The HTTP status.
    public let status: Int
    /// The header fields, by lowercased name (a repeated field's values joined by ", ").
    public let headers: [String: String]
    /// The body's bytes.
    public let body: [UInt8]

    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as JSON (a problem's members, a State), or nil when it is not JSON.
    public var json: JSONValue? { try? JSONValue.parse(body) }
}
