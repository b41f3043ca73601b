import Foundation

/// Async helpers that run blocking client I/O on its own thread, never on Swift's cooperative
/// pool (an in-process server's handlers need that pool to answer).
public enum TestHTTP {
    /// Runs `body` on a fresh thread and returns its result.
    public static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// One request on a new connection.
    public static func request(
        port: UInt16, _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil
    ) async throws -> TestResponse {
        try await offPool {
            try HTTPConnection(port: port).request(method, path, headers: headers, body: Array((body ?? "").utf8))
        }
    }
}
