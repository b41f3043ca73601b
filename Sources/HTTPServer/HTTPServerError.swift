/// Why the server could not start.
package struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    package let description: String
}
