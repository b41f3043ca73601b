import Synchronization

/// The event streams a server is sending, so that a shutdown can end each with a last frame.
final class OpenStreams: Sendable {
    private let streams = Mutex<[ObjectIdentifier: EventStream]>([:])

    func opened(_ stream: EventStream) {
        streams.withLock { $0[ObjectIdentifier(stream)] = stream }
    }

    func closed(_ stream: EventStream) {
        _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    var count: Int { streams.withLock { $0.count } }

    /// Ends every stream with an `ended` frame that tells its client to reconnect (to another
    /// node, behind a proxy) at once: the client resumes with `Last-Event-ID`, so it loses nothing.
    func drain() {
        let open = streams.withLock { Array($0.values) }
        for stream in open { Self.drain(stream) }
    }

    static func drain(_ stream: EventStream) {
        stream.finish(
            event: "ended", data: Array(#"{"reason":"server-draining","reconnect":true}"#.utf8), retryMilliseconds: 0)
    }
}
