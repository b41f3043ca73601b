import Foundation

/// A complete HTTP response: status, header fields and body bytes.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// When set, the body is this stream (sent as it is fed, until it finishes) and `body` is unused.
    package var eventStream: EventStream?

    package init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/event-stream` response whose body is `stream`.
    package static func eventStream(_ stream: EventStream, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set("Content-Type", "text/event-stream")
        headers.set("Cache-Control", "no-store")
        // Tells nginx-like proxies not to buffer the stream.
        headers.set("X-Accel-Buffering", "no")
        var response = HTTPResponse(status: 200, headers: headers)
        response.eventStream = stream
        return response
    }

    /// A response whose body is `value` encoded as JSON.
    package static func json(
        _ value: some Encodable, status: Int = 200, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        json(bytes: JSONCoding.encode(value), status: status, headers: headers)
    }

    /// A response with an already encoded JSON body.
    package static func json(bytes: [UInt8], status: Int = 200, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: headers, body: bytes)
    }

    /// A plain-text response, for Prometheus and the like.
    package static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8")
        -> HTTPResponse
    {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: Array(text.utf8))
    }
}

/// The one JSON encoder configuration used for every response body.
package enum JSONCoding {
    /// Encodes with sorted keys so that equal values give equal bytes. A value that fails to
    /// encode (a bug) becomes a fixed `500` problem body rather than stopping the process.
    package static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return unencodable }
        return Array(data)
    }

    private static let unencodable = Array(
        #"{"detail":"The server failed to encode its answer.","status":500,"title":"Internal Server Error","type":"urn:coordinatord:problem:internal-error"}"#
            .utf8)
}
