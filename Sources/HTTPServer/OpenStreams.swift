import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The event streams a server is sending, and their sockets.
///
/// A stream's connection leaves libmicrohttpd once its response head is due: the stream writes to
/// its own copy of the socket and one poller thread watches them all. libmicrohttpd would keep an
/// idle stream's connection suspended, holding its memory pool (tens of KiB), and it walks every
/// suspended connection each time any connection resumes; so each open stream cost memory and
/// every request's answer got slower as streams were added.
final class OpenStreams: Sendable {
    /// The streams by token (the poller's thread shares it, so it is a class of its own).
    private final class Table: Sendable {
        let streams = Mutex<[UInt64: EventStream]>([:])
    }

    private let table = Table()
    private let nextToken = Atomic<UInt64>(1)
    private let poller: StreamPoller

    init() {
        poller = StreamPoller { [table] token in
            table.streams.withLock { $0[token] }?.socketReady()
        }
    }

    /// Starts sending `stream` on `socket` (the stream's own descriptor, closed when it ends):
    /// `head` first, then its frames. False (and `socket` closed) if the socket cannot be watched.
    func start(_ stream: EventStream, socket: Int32, head: [UInt8]) -> Bool {
        let token = nextToken.add(1, ordering: .relaxed).oldValue
        table.streams.withLock { $0[token] = stream }
        guard poller.watch(socket, token: token) else {
            _ = table.streams.withLock { $0.removeValue(forKey: token) }
            close(socket)
            return false
        }
        stream.start(socket: socket, head: head, host: self, token: token)
        return true
    }

    /// `stream` ended: its socket is no longer watched (the stream closes it next).
    func ended(token: UInt64, socket: Int32) {
        poller.forget(socket)
        _ = table.streams.withLock { $0.removeValue(forKey: token) }
    }

    var count: Int { table.streams.withLock { $0.count } }

    /// Ends every stream with an `ended` frame that tells its client to reconnect (to another
    /// node, behind a proxy) at once: the client resumes with `Last-Event-ID`, so it loses nothing.
    func drain() {
        let open = table.streams.withLock { Array($0.values) }
        for stream in open { Self.drain(stream) }
    }

    static func drain(_ stream: EventStream) {
        stream.finish(
            event: "ended", data: Array(#"{"reason":"server-draining","reconnect":true}"#.utf8), retryMilliseconds: 0)
    }

    /// Closes every stream at once (those whose readers did not take their last frame in time)
    /// and ends the poller's thread.
    func stop() {
        let open = table.streams.withLock { Array($0.values) }
        for stream in open { stream.closed() }
        poller.stop()
    }
}
