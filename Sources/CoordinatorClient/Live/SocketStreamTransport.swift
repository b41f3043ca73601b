#if canImport(Glibc)
import Foundation
import Glibc

/// A live stream over a plain TCP socket (HTTP/1.1, `http` URLs): what Linux needs, where
/// `URLSession` hands a body over only once the stream has closed. A thread of its own reads
/// the socket and hands the body on as it arrives (chunked or not); ending the stream (or
/// cancelling its reader) shuts the socket, which ends the thread.
public struct SocketStreamTransport: StreamTransport {
    public init() {}

    public func open(_ request: HTTPRequest, idleTimeout: Duration) async throws -> StreamResponse {
        guard request.url.scheme == "http", let host = request.url.host else {
            throw StreamTransportError.unsupportedURL(request.url.absoluteString)
        }
        let port = request.url.port ?? 80
        let seconds = max(1, Int(idleTimeout.components.seconds))
        // Blocking calls (connect, the head's reads) run on a thread, not on Swift's pool.
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    let socket = try Self.connect(host: host, port: port, idleSeconds: seconds)
                    do {
                        try Self.send(Self.head(of: request, host: host, port: port), on: socket)
                        let reader = SocketReader(socket: socket)
                        let (status, headers) = try reader.readHead()
                        continuation.resume(returning: StreamResponse(status: status, headers: headers, body: reader.body(headers)))
                    } catch {
                        close(socket)
                        throw error
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private static func head(of request: HTTPRequest, host: String, port: Int) -> [UInt8] {
        var target = request.url.path.isEmpty ? "/" : request.url.path
        if let query = request.url.query { target += "?" + query }
        var lines = ["\(request.method) \(target) HTTP/1.1", "Host: \(host):\(port)", "Connection: close"]
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private static func connect(host: String, port: Int, idleSeconds: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw StreamTransportError.connection("cannot resolve \(host)")
        }
        defer { freeaddrinfo(first) }
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            if socket >= 0 {
                var timeout = timeval(tv_sec: idleSeconds, tv_usec: 0)
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
                close(socket)
            }
            candidate = address.pointee.ai_next
        }
        throw StreamTransportError.connection("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))")
    }

    private static func send(_ bytes: [UInt8], on socket: Int32) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw StreamTransportError.connection("the request could not be sent") }
            sent += count
        }
    }
}

/// Reads one answer from a socket: its head, then its body as it arrives.
private final class SocketReader: @unchecked Sendable {  // used by one thread at a time: the opener, then the body's reader
    let socket: Int32
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    init(socket: Int32) { self.socket = socket }

    /// More bytes into `buffer`; false when the peer closed.
    private func fill() throws -> Bool {
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer += chunk[0..<count]
            return true
        }
        if count == 0 { return false }
        if errno == EAGAIN || errno == EWOULDBLOCK { throw StreamTransportError.idle }
        throw StreamTransportError.connection(String(cString: strerror(errno)))
    }

    func readHead() throws -> (Int, [String: String]) {
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while end == nil {
            guard try fill() else { throw StreamTransportError.malformedAnswer }
            end = buffer.count < 4 ? nil : (0...(buffer.count - 4)).first { buffer[$0..<$0 + 4].elementsEqual(separator) }
            if end == nil, buffer.count > 64 * 1024 { throw StreamTransportError.malformedAnswer }
        }
        let lines = String(decoding: buffer[..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeFirst(end! + 4)
        let statusLine = lines.first?.split(separator: " ") ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/"), let status = Int(statusLine[1]) else {
            throw StreamTransportError.malformedAnswer
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers)
    }

    /// The body, read on a thread of its own; chunked transfer coding is taken off.
    func body(_ headers: [String: String]) -> AsyncThrowingStream<[UInt8], any Error> {
        let chunked = headers["transfer-encoding"]?.lowercased().contains("chunked") == true
        let length = headers["content-length"].flatMap(Int.init)
        return AsyncThrowingStream { continuation in
            let socket = self.socket
            continuation.onTermination = { _ in shutdown(socket, Int32(SHUT_RDWR)) }
            Thread.detachNewThread {
                defer { close(socket) }
                do {
                    if chunked {
                        try self.readChunks { continuation.yield($0) }
                    } else {
                        var remaining = length ?? Int.max
                        while remaining > 0 {
                            if self.buffer.isEmpty { guard try self.fill() else { break } }
                            let part = Array(self.buffer.prefix(remaining))
                            self.buffer.removeFirst(part.count)
                            remaining -= part.count
                            continuation.yield(part)
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        }
    }

    /// Hands on each chunk's data until the last (empty) chunk.
    private func readChunks(_ hand: ([UInt8]) -> Void) throws {
        while true {
            let line = try readLine()
            guard let size = Int(line.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) ?? "", radix: 16) else {
                throw StreamTransportError.malformedAnswer
            }
            if size == 0 { return }
            var remaining = size
            while remaining > 0 {
                if buffer.isEmpty { guard try fill() else { throw StreamTransportError.connection("the stream broke mid-chunk") } }
                let part = Array(buffer.prefix(remaining))
                buffer.removeFirst(part.count)
                remaining -= part.count
                hand(part)
            }
            _ = try readLine()  // the CRLF after the chunk's data
        }
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            guard buffer.count < 1024, try fill() else { throw StreamTransportError.connection("the stream ended") }
        }
    }
}
#endif
