import HTTPServer
import Sessions

/// One live stream: the session service's subscriber, written to the HTTP stream as SSE frames.
///
/// Frames: `id: <version>` + `data: <State>`; `event: status` + `data: {"connected":bool}` when
/// this node loses or regains its link to changes made on other nodes; and a last
/// `event: ended` + `data: {"reason":…}` when the token no longer opens the session (or the
/// server drains: `"reconnect":true`).
final class LiveStream: LiveSubscriber {
    let body: EventStream

    init(sessionID: String, service: SessionService, metrics: LiveMetrics) {
        let subscriber = WeakSubscriber()
        body = EventStream(
            observer: EventStreamObserver(
                sent: { metrics.sent() }, coalesced: { metrics.coalesced() },
                closed: {
                    metrics.closed()
                    if let stream = subscriber.stream { service.unsubscribeStream(stream, sessionID: sessionID) }
                }))
        subscriber.stream = self
    }

    func deliver(_ update: LiveUpdate) {
        body.send(id: update.version, frame: update.encoded { EventStream.frame(id: $0.version, data: $0.state) })
    }

    func skip(through version: Int) { body.skip(through: version) }

    func end(reason: LiveEndReason) {
        body.finish(event: "ended", data: Array(#"{"reason":"\#(reason.rawValue)"}"#.utf8))
    }

    func status(connected: Bool) { body.notice(event: "status", data: Array(#"{"connected":\#(connected)}"#.utf8)) }

    func heartbeat() { body.comment() }
}

/// The stream, for its own close callback, without a retain cycle (stream → body → observer → stream).
private final class WeakSubscriber: @unchecked Sendable {  // set once in `LiveStream.init`, before any callback
    weak var stream: LiveStream?
}
