import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// Sends the session's token as `Authorization: Bearer` (the document's `bearer` scheme).
final class BearerToken: ClientMiddleware {
    let token = Mutex<String?>(nil)

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = token.withLock({ $0 }) { request.headerFields[.authorization] = "Bearer \(token)" }
        return try await next(request, body, baseURL)
    }
}

/// Test plumbing, not client code: writes each exchange as one JSON line to the file named by
/// `OPENAPI_EXCHANGE_LOG` (the strict validator of `make test` reads it), and keeps the
/// last request's header fields for the test to look at.
final class Recorder: ClientMiddleware {
    let lastRequest = Mutex<HTTPFields>([:])
    private let file = ProcessInfo.processInfo.environment["OPENAPI_EXCHANGE_LOG"]
    private let lock = Mutex(())

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var sent: Data? = nil
        if let body { sent = try await Data(collecting: body, upTo: 1 << 20) }
        let (response, answer) = try await next(request, sent.map { HTTPBody($0) }, baseURL)
        var received = Data()
        if let answer { received = try await Data(collecting: answer, upTo: 1 << 20) }
        lastRequest.withLock { $0 = request.headerFields }
        if let file {
            func fields(_ fields: HTTPFields) -> [String: String] {
                Dictionary(fields.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { $0 + ", " + $1 })
            }
            let line: [String: Any] = [
                "method": request.method.rawValue, "path": request.path ?? "", "headers": fields(request.headerFields),
                "body": String(decoding: sent ?? Data(), as: UTF8.self), "status": response.status.code,
                "responseHeaders": fields(response.headerFields), "responseBody": String(decoding: received, as: UTF8.self),
            ]
            let bytes = try JSONSerialization.data(withJSONObject: line) + Data("\n".utf8)
            lock.withLock { _ in
                if !FileManager.default.fileExists(atPath: file) { FileManager.default.createFile(atPath: file, contents: nil) }
                if let handle = FileHandle(forWritingAtPath: file) {
                    _ = try? handle.seekToEnd()
                    try? handle.write(contentsOf: bytes)
                    try? handle.close()
                }
            }
        }
        return (response, HTTPBody(received))
    }
}
