import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One Server-Sent Events frame as a client reads it.
public struct SSEFrame: Sendable, CustomStringConvertible {
    /// The `id:` field (a State's version), if the frame has one.
    public var id: Int?
    /// The `event:` field; nil for a State frame.
    public var event: String?
    public var data: String
    /// A comment line only (a heartbeat).
    public var isComment: Bool

    public var json: [String: Any] { SessionClient.parse(data) }
    public var description: String { "id=\(id.map(String.init) ?? "-") event=\(event ?? "-") data=\(data.prefix(80))" }
}

/// A blocking client of `GET /v1/sessions/{id}/stream` over a raw socket: reads the response head,
/// decodes the chunked body and splits it into SSE frames. Drive it from one thread (`TestHTTP.offPool`).
public final class EventStreamClient: @unchecked Sendable {  // one test thread at a time
    public let status: Int
    public let headers: [String: String]
    /// The body of a refusal (a problem), empty for a stream.
    public let refusalBody: String
    private let socket: Int32
    private var raw: [UInt8] = []
    private var decoded: [UInt8] = []
    private var chunkRemaining = 0
    private var ended = false

    /// Opens the stream. `receiveBuffer` shrinks the socket's receive buffer (a slow reader's
    /// kernel holds little, so the server's frames back up sooner).
    public init(
        port: UInt16, sessionID: String, token: String?, lastEventID: Int? = nil, receiveBuffer: Int? = nil,
        extraHeaders: [String: String] = [:], receiveTimeoutSeconds: Int = Int(defaultDeadlineSeconds)
    ) throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestClientError(description: "socket() failed") }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: max(1, receiveTimeoutSeconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var connected: Int32 = -1
        for _ in 0..<5 {
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if connected == 0 || errno != EINTR { break }
        }
        guard connected == 0 else {
            close(descriptor)
            throw TestClientError(description: "connect to \(port) failed: errno \(errno)")
        }
        socket = descriptor
        var head = "GET /v1/sessions/\(sessionID)/stream HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let lastEventID { head += "Last-Event-ID: \(lastEventID)\r\n" }
        for (name, value) in extraHeaders { head += "\(name): \(value)\r\n" }
        let bytes = Array((head + "\r\n").utf8)
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        // The head.
        var end: Int?
        var scratch: [UInt8] = []
        while end == nil {
            guard let chunk = try Self.receive(descriptor) else { throw TestClientError(description: "closed before a head") }
            scratch += chunk
            end = Self.find([13, 10, 13, 10], in: scratch)
        }
        let headText = String(decoding: scratch[..<end!], as: UTF8.self)
        raw = Array(scratch[(end! + 4)...])
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.headers = headers
        if status != 200, let length = Int(headers["content-length"] ?? "") {
            while raw.count < length, let chunk = try Self.receive(descriptor) { raw += chunk }
            refusalBody = String(decoding: raw.prefix(length), as: UTF8.self)
        } else {
            refusalBody = ""
        }
    }

    deinit { close(socket) }

    /// Sends `bytes` up the stream's connection (which a stream's client never should); false once
    /// the server has closed it.
    public func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Closes the connection (the server sees the client leave).
    public func disconnect() { shutdown(socket, Int32(SHUT_RDWR)) }

    /// The next frame (comments included), or nil when the server ended the body.
    public func nextFrame() throws -> SSEFrame? {
        while true {
            if let frame = takeFrame() { return frame }
            if ended { return nil }
            try decodeMore()
        }
    }

    /// The next frame that is not a comment; throws once `seconds` pass without one (heartbeat
    /// comments keep the socket's receive timeout from ever firing on a live stream).
    public func next(seconds: Double = defaultDeadlineSeconds) throws -> SSEFrame? {
        let deadline = Deadline(seconds: seconds)
        while let frame = try nextFrame() {
            if !frame.isComment { return frame }
            guard !deadline.hasPassed else {
                throw DeadlineExceeded("a frame other than a heartbeat", seconds: seconds)
            }
        }
        return nil
    }

    /// Reads frames until one with `id >= version` arrives; returns every State frame read.
    public func states(through version: Int) throws -> [SSEFrame] {
        var frames: [SSEFrame] = []
        while let frame = try next() {
            guard frame.event == nil else { throw TestClientError(description: "unexpected \(frame)") }
            frames.append(frame)
            if (frame.id ?? 0) >= version { return frames }
        }
        throw TestClientError(description: "the stream ended before version \(version); got \(frames)")
    }

    private func takeFrame() -> SSEFrame? {
        guard let end = Self.find([10, 10], in: decoded) else { return nil }
        let text = String(decoding: decoded[..<end], as: UTF8.self)
        decoded.removeFirst(end + 2)
        var frame = SSEFrame(id: nil, event: nil, data: "", isComment: true)
        var dataLines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") { continue }
            frame.isComment = false
            let parts = line.split(separator: ":", maxSplits: 1)
            let name = parts.first.map(String.init) ?? ""
            var value = parts.count > 1 ? String(parts[1]) : ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch name {
            case "id": frame.id = Int(value)
            case "event": frame.event = value
            case "data": dataLines.append(value)
            default: break
            }
        }
        frame.data = dataLines.joined(separator: "\n")
        return frame
    }

    /// Decodes more of the chunked body into `decoded`.
    private func decodeMore() throws {
        while true {
            if chunkRemaining > 0, !raw.isEmpty {
                let take = min(chunkRemaining, raw.count)
                decoded += raw[..<take]
                raw.removeFirst(take)
                chunkRemaining -= take
                if chunkRemaining == 0 { raw.removeFirst(0) }
                return
            }
            if chunkRemaining == 0, let lineEnd = Self.find([13, 10], in: raw) {
                let line = String(decoding: raw[..<lineEnd], as: UTF8.self)
                if line.isEmpty {  // the CRLF after a chunk's data
                    raw.removeFirst(2)
                    continue
                }
                let size = Int(line.split(separator: ";").first ?? "", radix: 16) ?? 0
                raw.removeFirst(lineEnd + 2)
                if size == 0 {
                    ended = true
                    return
                }
                chunkRemaining = size
                continue
            }
            guard let chunk = try Self.receive(socket) else {
                ended = true
                return
            }
            raw += chunk
        }
    }

    /// Bytes from the socket; nil at end of stream; throws on timeout.
    private static func receive(_ socket: Int32) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let (count, error) = MachineStalls.receive(socket, into: &buffer)
        if count < 0 && (error == EAGAIN || error == EWOULDBLOCK) {
            throw TestClientError(description: "no stream data within the receive timeout")
        }
        guard count > 0 else { return nil }  // the end of the stream, or a reset connection
        return Array(buffer[..<count])
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
