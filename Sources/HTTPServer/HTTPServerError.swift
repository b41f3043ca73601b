/// Why the server could not start.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
