/// Something that turns a complete request into a response.
package protocol HTTPResponder: Sendable {
    nonisolated(nonsending) func respond(to request: HTTPRequest) async -> HTTPResponse
}

/// Routes requests by method and path pattern (`/v1/sessions/{id}/events`) to handlers.
///
/// Unknown paths get `404`, a known path with another method gets `405` with `Allow`;
/// both as `application/problem+json`. A handler that throws a `ProblemError` answers with its
/// problem; any other error becomes a `500` problem without details. Both a `500` problem and
/// any other error are reported to `unexpectedError` (to be logged with their cause: the client
/// never sees it).
package struct Router: HTTPResponder {
    package typealias Handler = nonisolated(nonsending) @Sendable (HTTPRequest) async throws -> HTTPResponse
    /// Told of every error a handler threw that is not a `ProblemError`, and of those answered with `500`.
    package typealias ErrorReporter = @Sendable (_ error: any Error, _ request: HTTPRequest) -> Void

    /// A registered route: its method and its pattern, as written, and its place among the
    /// routes in registration order (a cheap key for what is kept per route).
    package struct Route: Sendable, Hashable {
        package let method: String
        package let pattern: String
        package let index: Int
    }

    /// The outcome of routing one request: the route it matched (nil for 404/405) and how to answer.
    package struct Resolution: Sendable {
        package let route: Route?
        fileprivate let handler: Handler
        fileprivate let parameters: PathParameters
        fileprivate let unexpectedError: ErrorReporter

        package nonisolated(nonsending) func respond(to request: HTTPRequest) async -> HTTPResponse {
            var request = request
            request.pathParameters = parameters
            do {
                return try await handler(request)
            } catch let error as any ProblemError {
                let problem = error.problem
                // A 500 is a bug (an app's statement the database refused, say): its cause is logged.
                if problem.status == 500 { unexpectedError(error, request) }
                return problem.response
            } catch {
                unexpectedError(error, request)
                return Problem(.internalError, detail: "The server failed to answer this request.").response
            }
        }
    }

    private enum Segment: Sendable {
        /// Compared with the path's bytes as they are.
        case literal([UInt8])
        case parameter(String)
    }

    private struct Entry: Sendable {
        let route: Route
        let segments: [Segment]
        let handler: Handler
    }

    private var entries: [Entry] = []
    private let unexpectedError: ErrorReporter

    package init(unexpectedError: @escaping ErrorReporter = { _, _ in }) {
        self.unexpectedError = unexpectedError
    }

    /// Every registered route, in registration order.
    package var routes: [Route] { entries.map(\.route) }

    /// Registers `handler` for `method` on `pattern`; `{name}` segments become path parameters.
    package mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        var text = pattern  // (`withUTF8` is mutating)
        let segments = text.withUTF8 { bytes in
            Self.split(bytes).map { range -> Segment in
                let part = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                return part.hasPrefix("{") && part.hasSuffix("}")
                    ? .parameter(String(part.dropFirst().dropLast())) : .literal(Array(part.utf8))
            }
        }
        entries.append(Entry(route: Route(method: method, pattern: pattern, index: entries.count), segments: segments, handler: handler))
    }

    package mutating func get(_ pattern: String, _ handler: @escaping Handler) { add("GET", pattern, handler) }
    package mutating func post(_ pattern: String, _ handler: @escaping Handler) { add("POST", pattern, handler) }
    package mutating func delete(_ pattern: String, _ handler: @escaping Handler) { add("DELETE", pattern, handler) }

    /// Finds the route for `method` and `path`, or a resolution that answers 404 or 405.
    package func resolve(method: String, path: String) -> Resolution {
        var text = path  // (`withUTF8` is mutating: a small string's bytes are put in a row first)
        var allowed: [String] = []
        let found = text.withUTF8 { bytes -> Resolution? in
            let parts = Self.split(bytes)
            // By index, reading each entry in place: `for entry in entries` copied every entry tried
            // (its route's strings, its segments and its handler retained, then released).
            for index in entries.indices where entries[index].segments.count == parts.count {
                guard let parameters = Self.match(entries[index].segments, parts, of: bytes) else { continue }
                let routeMethod = entries[index].route.method
                if routeMethod == method || (method == "HEAD" && routeMethod == "GET") {
                    let entry = entries[index]
                    return Resolution(
                        route: entry.route, handler: entry.handler, parameters: parameters, unexpectedError: unexpectedError)
                }
                allowed.append(routeMethod)
            }
            return nil
        }
        if let found { return found }
        let problem: Problem
        if allowed.isEmpty {
            problem = Problem(.noSuchRoute, detail: "No resource at \(path).")
        } else {
            if allowed.contains("GET") { allowed.append("HEAD") }
            problem = Problem(
                .methodNotAllowed, detail: "\(method) is not allowed on \(path).",
                headers: HTTPHeaders([("Allow", allowed.joined(separator: ", "))]))
        }
        return Resolution(route: nil, handler: { _ in throw problem }, parameters: PathParameters(), unexpectedError: unexpectedError)
    }

    package nonisolated(nonsending) func respond(to request: HTTPRequest) async -> HTTPResponse {
        await resolve(method: request.method, path: request.path).respond(to: request)
    }

    /// Where the non-empty segments between slashes are in `bytes`. Cut on UTF-8 bytes, not
    /// characters: a slash is one byte in UTF-8, and splitting by `Character` cost as much as the
    /// rest of routing. Ranges, not substrings: a substring of the path was two index walks, and
    /// each literal compared with one went through `String`'s comparison (1,500 instructions an event).
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        parts.reserveCapacity(6)
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "/") {
            if start != index { parts.append(start..<index) }
            start = index + 1
        }
        if start != bytes.count { parts.append(start..<bytes.count) }
        return parts
    }

    /// The path parameters when the `parts` of `bytes` match `segments`. Literals are all compared
    /// before any parameter is kept: a path tried against routes that differ only after a
    /// parameter (`/v1/sessions/{id}/…`) made and dropped a dictionary per route tried.
    private static func match(_ segments: [Segment], _ parts: [Range<Int>], of bytes: UnsafeBufferPointer<UInt8>)
        -> PathParameters?
    {
        guard segments.count == parts.count else { return nil }
        for index in segments.indices {
            guard case .literal(let literal) = segments[index] else { continue }
            let part = UnsafeBufferPointer(rebasing: bytes[parts[index]])
            guard literal.withUnsafeBufferPointer({ $0.elementsEqual(part) }) else { return nil }
        }
        var parameters = PathParameters()
        for index in segments.indices {
            if case .parameter(let name) = segments[index] {
                parameters.append(name: name, value: String(decoding: UnsafeBufferPointer(rebasing: bytes[parts[index]]), as: UTF8.self))
            }
        }
        return parameters
    }
}
