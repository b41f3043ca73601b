import Foundation

/// A response as a test client read it off the wire.
public struct TestResponse: Sendable {
    public let status: Int
    /// Header fields by lowercased name.
    public let headers: [String: String]
    public let body: [UInt8]

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object; an empty object if it is not one.
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}

/// The test client could not talk to the server.
public struct TestClientError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}
