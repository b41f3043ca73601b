import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A Server-Sent Events response body that other threads feed while libmicrohttpd sends it.
///
/// Memory is bounded whatever the reader's speed: the stream holds the frame being written, at
/// most one frame waiting (a newer one replaces it: frames *coalesce*) and the final frame. Frame
/// ids only grow: a frame whose id is not above the last one accepted is dropped, so a reader
/// may miss versions but never sees one go backwards.
///
/// Threading: libmicrohttpd's worker thread pulls bytes through `read`; when nothing is waiting
/// the connection is suspended (no busy loop, no timeout) and the next `send`, `comment` or
/// `finish`, from any thread, resumes it. A mutex guards the buffer and the suspended flag, so
/// exactly one caller resumes a suspended connection, and none after libmicrohttpd freed it.
public final class EventStream: Sendable {
    /// The kernel send buffer a stream's socket asks for (Linux doubles it for its bookkeeping).
    static let socketSendBufferBytes = 32 * 1024

    private struct Buffer {
        var writing: [UInt8] = []
        var offset = 0
        /// The next frame; a newer one replaces it. `isData` is false for a heartbeat comment.
        var waiting: (bytes: [UInt8], isData: Bool)?
        /// A frame without an id, written before `waiting`; a newer one replaces it.
        var notice: [UInt8]?
        var lastID = Int.min
        var final: [UInt8]?
        var finishing = false
        var suspended = false
        var connection: ConnectionHandle?
        /// The connection's socket, to see whether the peer left while the connection is suspended.
        var socket: Int32 = -1
        /// libmicrohttpd is done with the body (sent or the peer went away).
        var closed = false
    }

    private let buffer = Mutex(Buffer())
    private let observer: EventStreamObserver

    /// - Parameter observer: told when a data frame starts to be written, is replaced unsent, and
    ///   when the stream closes (the place to unsubscribe). Called on whatever thread acts; keep it quick.
    public init(observer: EventStreamObserver = EventStreamObserver()) {
        self.observer = observer
    }

    /// Queues a data frame with `id`, replacing a frame that waits unsent. False when it was dropped
    /// (an id not above the last one, or the stream is ending).
    @discardableResult
    public func send(id: Int, event: String? = nil, data: [UInt8]) -> Bool {
        send(id: id, frame: Self.frame(id: id, event: event, data: data))
    }

    /// Queues a frame made by `frame(id:event:data:)` with this `id` (one frame shared by many streams).
    @discardableResult
    public func send(id: Int, frame: [UInt8]) -> Bool {
        var coalesced = false
        let accepted = update { buffer in
            guard !buffer.finishing, !buffer.closed, id > buffer.lastID else { return false }
            buffer.lastID = id
            if let waiting = buffer.waiting, waiting.isData { coalesced = true }
            buffer.waiting = (frame, true)
            return true
        }
        if coalesced { observer.coalesced() }
        return accepted
    }

    /// Queues an SSE comment (a heartbeat) when nothing else waits: any write keeps proxies from
    /// closing the stream and finds a dead peer. A suspended connection notices nothing of its peer
    /// (libmicrohttpd does not poll it), so a peer that closed its end is looked for here, and its
    /// stream ends instead.
    public func comment(_ text: String = "") {
        update { buffer in
            guard !buffer.finishing, !buffer.closed, buffer.waiting == nil else { return false }
            // Only while suspended: then libmicrohttpd cannot close the socket under us.
            if buffer.suspended && Self.peerLeft(buffer.socket) {
                buffer.finishing = true
                return true
            }
            buffer.waiting = (Array(":\(text)\n\n".utf8), false)
            return true
        }
    }

    /// True when `socket` reads end of file or fails (not merely "nothing to read").
    private static func peerLeft(_ socket: Int32) -> Bool {
        guard socket >= 0 else { return false }
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Queues a frame without an id (a status), before any waiting data frame; a newer one replaces it.
    public func notice(event: String, data: [UInt8]) {
        let frame = Self.frame(id: nil, event: event, data: data)
        update { buffer in
            guard !buffer.finishing, !buffer.closed else { return false }
            buffer.notice = frame
            return true
        }
    }

    /// Queues a last frame after what waits, then ends the body. Later frames are dropped.
    public func finish(event: String, data: [UInt8], retryMilliseconds: Int? = nil) {
        var frame = Self.frame(id: nil, event: event, data: data)
        if let retryMilliseconds { frame = Array("retry: \(retryMilliseconds)\n".utf8) + frame }
        update { buffer in
            guard !buffer.finishing, !buffer.closed else { return false }
            buffer.finishing = true
            buffer.final = frame
            return true
        }
    }

    /// True once the stream ends or ended.
    public var isFinishing: Bool { buffer.withLock { $0.finishing || $0.closed } }

    /// Applies `change`; when it queued something and the connection is suspended, resumes it
    /// (outside the lock: resuming wakes the worker thread, which then calls `read`).
    @discardableResult
    private func update(_ change: (inout Buffer) -> Bool) -> Bool {
        let (changed, resume) = buffer.withLock { buffer -> (Bool, ConnectionHandle?) in
            guard change(&buffer) else { return (false, nil) }
            guard buffer.suspended, let connection = buffer.connection else { return (true, nil) }
            buffer.suspended = false
            return (true, connection)
        }
        if let resume { MHD_resume_connection(resume.pointer) }
        return changed
    }

    /// An SSE frame's bytes: `id:`, `event:`, one `data:` line per line of `data`, a blank line.
    public static func frame(id: Int?, event: String? = nil, data: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(data.count + 32)
        if let id { frame += Array("id: \(id)\n".utf8) }
        if let event { frame += Array("event: \(event)\n".utf8) }
        // One `data:` line per line of the payload (JSON as served has none, but text might).
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            frame += Array("data: ".utf8) + line + [UInt8(ascii: "\n")]
        }
        frame.append(UInt8(ascii: "\n"))
        return frame
    }

    // MARK: libmicrohttpd's side (the connection's worker thread)

    /// The response is queued on `connection`; from now on `read` runs.
    func attach(to connection: OpaquePointer, socket: Int32) {
        buffer.withLock {
            $0.connection = ConnectionHandle(pointer: connection)
            $0.socket = socket
        }
    }

    /// libmicrohttpd's content reader: copies up to `max` bytes to `destination`; 0 after
    /// suspending the connection when nothing waits; -1 (end of stream) after the final frame.
    func read(into destination: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        var startedData = false
        let count = buffer.withLock { buffer -> Int in
            if buffer.offset >= buffer.writing.count {
                if let notice = buffer.notice {
                    (buffer.writing, buffer.offset, buffer.notice) = (notice, 0, nil)
                } else if let waiting = buffer.waiting {
                    (buffer.writing, buffer.offset, buffer.waiting) = (waiting.bytes, 0, nil)
                    startedData = waiting.isData
                } else if let final = buffer.final {
                    (buffer.writing, buffer.offset, buffer.final) = (final, 0, nil)
                } else if buffer.finishing {
                    return -1
                } else {
                    buffer.writing = []
                    buffer.offset = 0
                    buffer.suspended = true
                    // Allowed from a content reader; the next `update` resumes it.
                    if let connection = buffer.connection { MHD_suspend_connection(connection.pointer) }
                    return 0
                }
            }
            let count = min(max, buffer.writing.count - buffer.offset)
            buffer.writing.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(destination).copyMemory(
                    from: bytes.baseAddress! + buffer.offset, byteCount: count)
            }
            buffer.offset += count
            return count
        }
        if startedData { observer.sent() }
        return count
    }

    /// libmicrohttpd freed the response: the body is done (or the peer left).
    func closed() {
        buffer.withLock {
            $0.closed = true
            $0.suspended = false
            $0.connection = nil
            $0.socket = -1
            $0.waiting = nil
            $0.notice = nil
            $0.writing = []
        }
        observer.closed()
    }
}

/// What an `EventStream` reports as it runs (for metrics and unsubscribing).
public struct EventStreamObserver: Sendable {
    let sent: @Sendable () -> Void
    let coalesced: @Sendable () -> Void
    let closed: @Sendable () -> Void

    public init(
        sent: @escaping @Sendable () -> Void = {}, coalesced: @escaping @Sendable () -> Void = {},
        closed: @escaping @Sendable () -> Void = {}
    ) {
        self.sent = sent
        self.coalesced = coalesced
        self.closed = closed
    }
}
