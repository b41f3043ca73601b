import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as the client sends it.
public struct HTTPRequest: Sendable, Hashable {
    public var method: String
    public var url: URL
    /// Header names as the client writes them (`Authorization`, `Idempotency-Key`, ...).
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        (self.method, self.url, self.headers, self.body) = (method, url, headers, body)
    }
}

/// An answer as the transport received it.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { _, last in last }
        self.body = body
    }
}

/// What carries requests to the server. `URLSessionTransport` by default; an app may wrap it
/// (to log, to add headers) and a test may wrap it to lose an answer on purpose.
///
/// Any error it throws counts as "the answer may be lost": the client retries the request, with
/// the same `Idempotency-Key` for an event, so the server applies it at most once.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// `URLSession`, on Apple platforms and on Linux (FoundationNetworking).
public struct URLSessionTransport: HTTPTransport {
    public let session: URLSession
    /// How long one request may take before it counts as lost.
    public var timeout: TimeInterval

    public init(session: URLSession = .shared, timeout: TimeInterval = 30) {
        (self.session, self.timeout) = (session, timeout)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        // The completion-handler form: its async sibling is missing from older Linux Foundations.
        let (data, response): (Data, URLResponse) = try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: urlRequest) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }
            task.resume()
        }
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in http.allHeaderFields { headers[name] = value }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }
}
