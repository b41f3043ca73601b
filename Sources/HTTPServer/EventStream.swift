import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A Server-Sent Events response body that other threads feed while it is sent.
///
/// Memory is bounded whatever the reader's speed: the stream holds the chunk being written, at
/// most one frame waiting (a newer one replaces it: frames *coalesce*) and the final frame. Frame
/// ids only grow: a frame whose id is not above the last one accepted is dropped, so a reader
/// may miss versions but never sees one go backwards.
///
/// Sending: once its handler returned it, the stream owns a copy of its connection's socket
/// (libmicrohttpd lets go of the connection, see `OpenStreams`). Whoever queues a frame writes
/// it at once, chunked, without blocking; what the socket cannot take now waits, and the
/// poller's thread writes it when the socket has room. An idle stream costs no thread and no
/// timer. A mutex guards the buffer and the socket, so writes never interleave and none
/// happens after the socket closed. Frames queued before the socket is handed over wait for it.
package final class EventStream: Sendable {
    /// The kernel send buffer a stream's socket asks for (Linux doubles it for its bookkeeping).
    static let socketSendBufferBytes = 32 * 1024

    private struct Buffer {
        /// The bytes being written: a chunk's size line, its data (a frame, shared with other
        /// streams, never copied) and its end; `offset` counts the bytes of all three sent.
        var chunkHead: [UInt8] = []
        var writing: [UInt8] = []
        var chunkTail: [UInt8] = []
        var offset = 0
        /// The next frame; a newer one replaces it. `isData` is false for a heartbeat comment.
        var waiting: (bytes: [UInt8], isData: Bool)?
        /// A frame without an id, written before `waiting`; a newer one replaces it.
        var notice: [UInt8]?
        var lastID = Int.min
        var final: [UInt8]?
        var finishing = false
        /// The body's terminating chunk is queued: once it is written the stream closes.
        var terminated = false
        /// The stream's own socket, once the response is ours to send (-1 before and after).
        var socket: Int32 = -1
        var host: OpenStreams?
        var token: UInt64 = 0
        /// The body is done (sent, the peer went away, or it never started).
        var closed = false
    }

    /// What writing found: more to write later, nothing to write, or the stream must close.
    private enum Progress {
        case blocked, idle, done
    }

    private let buffer = Mutex(Buffer())
    private let observer: EventStreamObserver

    /// - Parameter observer: told when a data frame starts to be written, is replaced unsent, and
    ///   when the stream closes (the place to unsubscribe). Called on whatever thread acts; keep it quick.
    package init(observer: EventStreamObserver = EventStreamObserver()) {
        self.observer = observer
    }

    /// Queues a data frame with `id`, replacing a frame that waits unsent. False when it was dropped
    /// (an id not above the last one, or the stream is ending).
    @discardableResult
    package func send(id: Int, event: String? = nil, data: [UInt8]) -> Bool {
        send(id: id, frame: Self.frame(id: id, event: event, data: data))
    }

    /// Queues a frame made by `frame(id:event:data:)` with this `id` (one frame shared by many streams).
    @discardableResult
    package func send(id: Int, frame: [UInt8]) -> Bool {
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

    /// Drops every data frame with an id up to `id` from now on: the client already has them
    /// (its `Last-Event-ID`), so a late fan-out of an older version never reaches it.
    package func skip(through id: Int) {
        buffer.withLock { $0.lastID = max($0.lastID, id) }
    }

    /// Queues an SSE comment (a heartbeat) when nothing else waits: any write keeps proxies from
    /// closing the stream, and a write to a peer that is gone fails and ends the stream.
    package func comment(_ text: String = "") {
        update { buffer in
            guard !buffer.finishing, !buffer.closed, buffer.waiting == nil else { return false }
            buffer.waiting = (Array(":\(text)\n\n".utf8), false)
            return true
        }
    }

    /// Queues a frame without an id (a status), before any waiting data frame; a newer one replaces it.
    package func notice(event: String, data: [UInt8]) {
        let frame = Self.frame(id: nil, event: event, data: data)
        update { buffer in
            guard !buffer.finishing, !buffer.closed else { return false }
            buffer.notice = frame
            return true
        }
    }

    /// Queues a last frame after what waits, then ends the body. Later frames are dropped.
    package func finish(event: String, data: [UInt8], retryMilliseconds: Int? = nil) {
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
    package var isFinishing: Bool { buffer.withLock { $0.finishing || $0.closed } }

    /// Applies `change`; when it queued something and the socket is ours, writes what it can now.
    @discardableResult
    private func update(_ change: (inout Buffer) -> Bool) -> Bool {
        var sent = 0
        let (changed, ended) = buffer.withLock { buffer -> (Bool, Bool) in
            guard change(&buffer) else { return (false, false) }
            guard buffer.socket >= 0 else { return (true, false) }
            return (true, Self.write(&buffer, started: &sent) == .done)
        }
        report(sent: sent, ended: ended)
        return changed
    }

    /// An SSE frame's bytes: `id:`, `event:`, one `data:` line per line of `data`, a blank line.
    package static func frame(id: Int?, event: String? = nil, data: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(data.count + 32)
        let newline = UInt8(ascii: "\n")
        if let id { frame.append(contentsOf: "id: \(id)\n".utf8) }
        if let event { frame.append(contentsOf: "event: \(event)\n".utf8) }
        // One `data:` line per line of the payload (JSON as served has none, but text might). A
        // State is kilobytes and every commit with a stream frames one: `memchr` finds the line
        // ends and each line is copied whole (a scan and copy byte by byte in Swift cost more than
        // the rest of the push together).
        data.withUnsafeBufferPointer { bytes in
            var start = 0
            while true {
                let end = bytes.baseAddress.flatMap { base in
                    memchr(base + start, Int32(newline), bytes.count - start).map {
                        UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base
                    }
                } ?? bytes.count
                frame.append(contentsOf: "data: ".utf8)
                frame.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                frame.append(newline)
                guard end < bytes.count else { break }
                start = end + 1
            }
        }
        frame.append(newline)
        return frame
    }

    // MARK: The socket's side

    /// The response is ours to send on `socket` (owned from now on): writes `head`, then what
    /// waits. Called once, by `OpenStreams`, which watches the socket for `token`.
    func start(socket: Int32, head: [UInt8], host: OpenStreams, token: UInt64) {
        var sent = 0
        let ended = buffer.withLock { buffer -> Bool in
            guard !buffer.closed else {
                host.ended(token: token, socket: socket)
                close(socket)
                return false
            }
            (buffer.socket, buffer.host, buffer.token) = (socket, host, token)
            (buffer.chunkHead, buffer.writing, buffer.chunkTail, buffer.offset) = ([], head, [], 0)
            // The poller may have seen the socket before it was ours: look at it now.
            return Self.peerLeft(buffer.socket) || Self.write(&buffer, started: &sent) == .done
        }
        report(sent: sent, ended: ended)
    }

    /// The poller saw the socket: the peer sent something or left, or there is room to write.
    func socketReady() {
        var sent = 0
        let ended = buffer.withLock { buffer -> Bool in
            guard buffer.socket >= 0 else { return false }
            return Self.peerLeft(buffer.socket) || Self.write(&buffer, started: &sent) == .done
        }
        report(sent: sent, ended: ended)
    }

    /// Tells the observer of data frames that started, and closes the stream if it ended.
    private func report(sent: Int, ended: Bool) {
        for _ in 0..<sent { observer.sent() }
        if ended { closed() }
    }

    /// Writes as much as the socket takes: the chunk in progress, then the notice, the waiting
    /// frame, the final frame and the body's end, each as one chunk. Counts data frames started.
    private static func write(_ buffer: inout Buffer, started: inout Int) -> Progress {
        while true {
            let total = buffer.chunkHead.count + buffer.writing.count + buffer.chunkTail.count
            if buffer.offset < total {
                let count = send(buffer)
                if count > 0 {
                    buffer.offset += count
                    continue
                }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .blocked }
                return .done  // the peer is gone
            }
            if let notice = buffer.notice {
                buffer.notice = nil
                chunk(notice, in: &buffer)
            } else if let waiting = buffer.waiting {
                buffer.waiting = nil
                if waiting.isData { started += 1 }
                chunk(waiting.bytes, in: &buffer)
            } else if let final = buffer.final {
                buffer.final = nil
                chunk(final, in: &buffer)
                // The chunk's end, then the zero-size chunk that ends the body.
                buffer.chunkTail = Array("\r\n0\r\n\r\n".utf8)
                buffer.terminated = true
            } else if buffer.finishing && !buffer.terminated {
                (buffer.chunkHead, buffer.writing, buffer.chunkTail, buffer.offset) = ([], [], Array("0\r\n\r\n".utf8), 0)
                buffer.terminated = true
            } else {
                // Nothing waits: keep no bytes for an idle stream.
                (buffer.chunkHead, buffer.writing, buffer.chunkTail, buffer.offset) = ([], [], [], 0)
                return buffer.terminated ? .done : .idle
            }
        }
    }

    /// Makes `frame` the chunk being written.
    private static func chunk(_ frame: [UInt8], in buffer: inout Buffer) {
        buffer.chunkHead = Array((String(frame.count, radix: 16) + "\r\n").utf8)
        buffer.writing = frame
        buffer.chunkTail = [13, 10]
        buffer.offset = 0
    }

    /// One non-blocking send of the unsent part of the chunk: the bytes sent, or -1 (errno).
    private static func send(_ buffer: Buffer) -> Int {
        let skipHead = min(buffer.offset, buffer.chunkHead.count)
        let skipData = min(buffer.offset - skipHead, buffer.writing.count)
        let skipTail = buffer.offset - skipHead - skipData
        return buffer.chunkHead.withUnsafeBytes { head in
            buffer.writing.withUnsafeBytes { data in
                buffer.chunkTail.withUnsafeBytes { tail in
                    coordinatord_send3(
                        buffer.socket, head.baseAddress.map { $0 + skipHead }, head.count - skipHead,
                        data.baseAddress.map { $0 + skipData }, data.count - skipData,
                        tail.baseAddress.map { $0 + skipTail }, tail.count - skipTail)
                }
            }
        }
    }

    /// True when the peer sent anything, closed its end, or the socket failed.
    private static func peerLeft(_ socket: Int32) -> Bool {
        // SSE is one-way: a client that sends anything after its request is not a stream reader
        // (or is feeding the socket to keep this thread busy), so any byte ends the stream, and
        // one small read decides it, however much the client sends.
        var byte: UInt8 = 0
        while true {
            let count = recv(socket, &byte, 1, Int32(MSG_DONTWAIT))
            if count < 0 && errno == EINTR { continue }
            return count >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
        }
    }

    /// The body is done (sent, the peer went away, or it never started): the socket closes and the
    /// observer hears it once.
    func closed() {
        let first = buffer.withLock { buffer -> Bool in
            guard !buffer.closed else { return false }
            if buffer.socket >= 0 {
                buffer.host?.ended(token: buffer.token, socket: buffer.socket)
                close(buffer.socket)
            }
            buffer = Buffer()
            buffer.closed = true
            buffer.finishing = true
            return true
        }
        if first { observer.closed() }
    }
}

/// What an `EventStream` reports as it runs (for metrics and unsubscribing).
package struct EventStreamObserver: Sendable {
    let sent: @Sendable () -> Void
    let coalesced: @Sendable () -> Void
    let closed: @Sendable () -> Void

    package init(
        sent: @escaping @Sendable () -> Void = {}, coalesced: @escaping @Sendable () -> Void = {},
        closed: @escaping @Sendable () -> Void = {}
    ) {
        self.sent = sent
        self.coalesced = coalesced
        self.closed = closed
    }
}
