import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 request and its answer over a connection of its own to 127.0.0.1 (`Connection:
/// close`), blocking the calling thread at most `seconds` per read or write: run it off Swift's
/// pool (`run`). Small on purpose: the tests' requests, the server's answers (a body of a known
/// length, or chunked).
enum HTTPExchange {
    /// Sends the request on a thread of its own and returns the answer.
    static func run(
        port: Int, _ method: String, _ path: String, headers: [(String, String)], body: [UInt8], seconds: Int
    ) async throws -> LiveResponse {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Result { try exchange(port: port, method, path, headers: headers, body: body, seconds: seconds) })
            }
            thread.name = "live-server-request"
            thread.start()
        }
    }

    private static func exchange(
        port: Int, _ method: String, _ path: String, headers: [(String, String)], body: [UInt8], seconds: Int
    ) throws -> LiveResponse {
        let socket = try connect(port: port, seconds: seconds)
        defer { close(socket) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        try send(socket, Array((head + "\r\n").utf8) + body)
        let answer = try parse(receiveAll(socket))
        ExchangeLog.record(method, path, headers: headers, body: body, answer: answer)
        return answer
    }

    private static func connect(port: Int, seconds: Int) throws -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        // A signal (a child process of the tests ending) can interrupt `connect`: try again on a fresh socket.
        for _ in 0..<5 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw LiveServerError("socket() failed: errno \(errno)") }
            var timeout = timeval(tv_sec: max(1, seconds), tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if connected == 0 { return descriptor }
            let failure = errno
            close(descriptor)
            if failure != EINTR { throw LiveServerError("cannot connect to 127.0.0.1:\(port): errno \(failure)") }
        }
        throw LiveServerError("connecting to 127.0.0.1:\(port) kept being interrupted")
    }

    private static func send(_ socket: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw LiveServerError("sending the request failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Everything the server sends until it closes the connection; a read past the socket's
    /// timeout fails.
    private static func receiveAll(_ socket: Int32) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return received }
            if count < 0 {
                if errno == EINTR { continue }
                throw LiveServerError(
                    errno == EAGAIN || errno == EWOULDBLOCK
                        ? "the server did not answer in time" : "reading the answer failed: errno \(errno)")
            }
            received += chunk[..<count]
        }
    }

    /// The status, header fields and body of a whole answer.
    static func parse(_ bytes: [UInt8]) throws -> LiveResponse {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0..<($0 + 4)].elementsEqual(separator) }) else {
            throw LiveServerError("an answer without a whole head: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines[0].split(separator: " ")
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else {
            throw LiveServerError("an answer with the status line \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true { body = try unchunked(body) }
        return LiveResponse(status: status, headers: headers, body: body)
    }

    /// The body of a chunked transfer.
    private static func unchunked(_ bytes: [UInt8]) throws -> [UInt8] {
        var body: [UInt8] = []
        var index = bytes.startIndex
        while true {
            guard let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\r")), lineEnd + 1 < bytes.endIndex else {
                throw LiveServerError("a chunked body cut short")
            }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw LiveServerError("a chunk of size \(sizeText)")
            }
            index = lineEnd + 2
            if size == 0 { return body }
            guard index + size <= bytes.endIndex else { throw LiveServerError("a chunked body cut short") }
            body += bytes[index..<(index + size)]
            index += size + 2
        }
    }
}
