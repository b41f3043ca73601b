import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 client connection over a raw socket, so tests control every byte:
/// chunked bodies, slow writes, keep-alive. Use it from a thread that may block (see `TestHTTP`).
public final class HTTPConnection: @unchecked Sendable {  // a test drives it from one thread at a time
    private let socket: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    /// - Parameters:
    ///   - receiveTimeoutSeconds: a read that waits longer fails, so a server that never
    ///     answers fails the test instead of hanging it.
    ///   - source: the local IPv4 address to connect from (any of 127.0.0.0/8 on loopback, so a
    ///     test can be a client other than the proxies it talks through); the system's choice if nil.
    public init(
        port: UInt16, host: String = "127.0.0.1", receiveTimeoutSeconds: Int = Int(defaultDeadlineSeconds),
        source: String? = nil
    ) throws {
        socket = try Self.connect(port: port, host: host, source: source)
        var yes: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: max(1, receiveTimeoutSeconds), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // A send to a server that stopped reading fails too, instead of blocking for ever.
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A connected socket. A signal (the test process's children exit) can interrupt `connect`,
    /// so an interrupted attempt is retried on a fresh socket.
    private static func connect(port: UInt16, host: String, source: String?) throws -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        for _ in 0..<5 {
            let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw TestClientError(description: "socket() failed: errno \(errno)") }
            if let source {
                var local = sockaddr_in()
                local.sin_family = sa_family_t(AF_INET)
                inet_pton(AF_INET, source, &local.sin_addr)
                let bound = withUnsafePointer(to: &local) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard bound == 0 else {
                    let failure = errno
                    close(descriptor)
                    throw TestClientError(description: "bind to \(source) failed: errno \(failure)")
                }
            }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if result == 0 { return descriptor }
            let failure = errno
            close(descriptor)
            if failure != EINTR { throw TestClientError(description: "connect to \(host):\(port) failed: errno \(failure)") }
        }
        throw TestClientError(description: "connect to \(host):\(port) kept being interrupted")
    }

    deinit {
        if !closed { close(socket) }
    }

    /// Hangs up at once, as a client that leaves mid-request does: with `reset`, the kernel sends
    /// a reset and drops anything unsent (`SO_LINGER` of 0); otherwise an orderly close.
    public func hangUp(reset: Bool) {
        guard !closed else { return }
        if reset {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        closed = true
        close(socket)
    }

    /// Reads whatever the server has sent, up to `count` bytes, waiting at most the receive
    /// timeout for the first; returns what it read (empty when the server closed).
    public func readSome(atMost count: Int) throws -> [UInt8] {
        if !buffer.isEmpty {
            defer { buffer.removeFirst(min(count, buffer.count)) }
            return Array(buffer.prefix(count))
        }
        var chunk = [UInt8](repeating: 0, count: count)
        let (received, _) = MachineStalls.receive(socket, into: &chunk)
        return received > 0 ? Array(chunk[..<received]) : []
    }

    /// Writes raw bytes.
    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw TestClientError(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// Sends one request with a `Content-Length` body and reads its response.
    public func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []
    ) throws -> TestResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        try write(Array((head + "\r\n").utf8) + body)
        return try readResponse(bodyless: method == "HEAD")
    }

    /// Reads one response: status line, headers, and a `Content-Length` body (none for `HEAD`).
    public func readResponse(bodyless: Bool = false) throws -> TestResponse {
        let headEnd = try fill(until: { Self.find([13, 10, 13, 10], in: $0) })
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestClientError(description: "bad status line in \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = bodyless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        _ = try fill(until: { $0.count >= length ? length : nil })
        let body = Array(buffer.prefix(length))
        buffer.removeFirst(length)
        return TestResponse(status: status, headers: headers, body: body)
    }

    /// True when the server has closed the connection (a read returns end of file).
    public func isClosedByPeer(timeoutSeconds: Int = 5) -> Bool {
        var pollDescriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&pollDescriptor, 1, Int32(timeoutSeconds * 1000)) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, 0) <= 0
    }

    private func fill(until found: ([UInt8]) -> Int?) throws -> Int {
        while true {
            if let index = found(buffer) { return index }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let (count, error) = MachineStalls.receive(socket, into: &chunk)
            if count < 0 && (error == EAGAIN || error == EWOULDBLOCK) {
                throw TestClientError(description: "no response within the receive timeout")
            }
            guard count > 0 else { throw TestClientError(description: "connection closed before a full response") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
