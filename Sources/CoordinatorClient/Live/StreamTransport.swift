import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An answer whose body arrives while it is read: a live stream's.
public struct StreamResponse: Sendable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    /// The body's bytes as they arrive; it ends when the server closes the stream, and throws
    /// when the connection breaks or stays silent past the transport's idle timeout.
    public var body: AsyncThrowingStream<[UInt8], any Error>

    public init(status: Int, headers: [String: String], body: AsyncThrowingStream<[UInt8], any Error>) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { _, last in last }
        self.body = body
    }
}

/// What carries a live stream: a request whose answer's body is handed over as it arrives.
/// (`HTTPTransport` hands over whole answers; on Linux, `URLSession` delivers a body only once
/// the stream has closed, so a stream needs a transport of its own there.)
public protocol StreamTransport: Sendable {
    /// Opens `request`; `idleTimeout` is the longest silence (no byte, not even a heartbeat)
    /// before the body throws `StreamTransportError.idle`.
    func open(_ request: HTTPRequest, idleTimeout: Duration) async throws -> StreamResponse
}

/// Why a stream's transport gave up.
public enum StreamTransportError: Error, Sendable, Hashable {
    /// No byte arrived within the idle timeout: the connection is presumed dead.
    case idle
    /// The connection could not be made, or broke.
    case connection(String)
    /// The transport cannot reach this URL (`SocketStreamTransport` speaks plain `http` only).
    case unsupportedURL(String)
    /// The answer's head was not HTTP.
    case malformedAnswer
}

/// The platform's stream transport: `URLSession`'s byte stream on Apple platforms, a socket of
/// its own on Linux (plain `http`: behind a proxy that terminates TLS, or on localhost).
public func defaultStreamTransport() -> any StreamTransport {
    #if canImport(FoundationNetworking)
    SocketStreamTransport()
    #else
    URLSessionStreamTransport()
    #endif
}

#if !canImport(FoundationNetworking)
/// `URLSession.bytes(for:)`, which streams on Apple platforms.
public struct URLSessionStreamTransport: StreamTransport {
    public let session: URLSession

    public init(session: URLSession = .shared) { self.session = session }

    public func open(_ request: HTTPRequest, idleTimeout: Duration) async throws -> StreamResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: Double(idleTimeout.components.seconds))
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let (bytes, response) = try await session.bytes(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw StreamTransportError.malformedAnswer }
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in http.allHeaderFields { headers[name] = value }
        let body = AsyncThrowingStream<[UInt8], any Error> { continuation in
            let task = Task {
                do {
                    var chunk: [UInt8] = []
                    for try await byte in bytes {
                        chunk.append(byte)
                        if byte == UInt8(ascii: "\n") {
                            continuation.yield(chunk)
                            chunk = []
                        }
                    }
                    if !chunk.isEmpty { continuation.yield(chunk) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return StreamResponse(status: http.statusCode, headers: headers, body: body)
    }
}
#endif
