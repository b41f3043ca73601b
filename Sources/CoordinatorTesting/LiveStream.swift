// Only the stream's transport and parser: CoordinatorClient has a `JSONValue` of its own.
import struct CoordinatorClient.HTTPRequest
import struct CoordinatorClient.ServerSentEventParser
import func CoordinatorClient.defaultStreamTransport
import Foundation
import Navigation
import Synchronization

/// A live stream of a `LiveSession` (`GET /v1/sessions/{id}/stream`), read State by State with a
/// deadline: what another device on the session sees. `session.stream()` opens one.
///
/// ```swift
/// var phone = try await server.newSession()
/// let tablet = try await phone.stream()
/// try await phone.send(WelcomeScreen.self, .start)
/// #expect(try await tablet.nextState()?["version"] == phone.state["version"])
/// ```
public final class LiveStream: Sendable {
    private struct Received {
        var states: [JSONValue] = []
        var endedReason: String?
        var finished = false
    }
    private let box: Box
    private let reader: Task<Void, Never>

    init(body: AsyncThrowingStream<[UInt8], any Error>) {
        let box = Box()
        reader = Task {
            var parser = ServerSentEventParser()
            do {
                for try await bytes in body {
                    for frame in parser.feed(bytes) {
                        switch frame.event {
                        case nil, "message"?:
                            if let state = try? JSONValue.parse(Array(frame.data.utf8)) { box.add(state) }
                        case "ended"?:
                            box.end((try? JSONValue.parse(Array(frame.data.utf8)))?["reason"]?.stringValue ?? "unknown")
                        default: continue
                        }
                    }
                }
            } catch {}
            box.finish()
        }
        self.box = box
    }

    /// What the reader received, behind a lock.
    private final class Box: Sendable {
        let received = Mutex(Received())
        func add(_ state: JSONValue) { received.withLock { $0.states.append(state) } }
        func end(_ reason: String) { received.withLock { $0.endedReason = reason } }
        func finish() { received.withLock { $0.finished = true } }
    }

    /// The `ended` frame's reason, once the stream ended with one (`signed-out`, …).
    public var endedReason: String? { box.received.withLock { $0.endedReason } }

    /// The next State the server pushes (in order, none skipped that it sent), waiting at most
    /// `deadline`; nil when the stream ended first (its reason in `endedReason`).
    public func nextState(within deadline: Duration = .seconds(30)) async throws -> JSONValue? {
        var wait = PollingDeadline(deadline)
        while true {
            let (state, over) = box.received.withLock { received -> (JSONValue?, Bool) in
                if !received.states.isEmpty { return (received.states.removeFirst(), false) }
                return (nil, received.finished || received.endedReason != nil)
            }
            if let state { return state }
            if over { return nil }
            if wait.hasPassed() { throw LiveServerError("no State on the stream within \(deadline)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Closes the stream.
    public func close() { reader.cancel() }

    deinit { reader.cancel() }
}

extension LiveSession {
    /// Opens the session's live stream with this session's token, as another device would;
    /// `lastEventID` resumes after that version (the first frame is otherwise the current State).
    public func stream(lastEventID: Int? = nil) async throws -> LiveStream {
        var headers = ["Authorization": "Bearer \(token)", "Accept": "text/event-stream"]
        if let lastEventID { headers["Last-Event-ID"] = String(lastEventID) }
        let request = CoordinatorClient.HTTPRequest(
            method: "GET", url: URL(string: "http://127.0.0.1:\(server.port)/v1/sessions/\(id)/stream")!, headers: headers)
        let response = try await defaultStreamTransport().open(request, idleTimeout: server.deadline)
        guard response.status == 200 else {
            throw LiveServerError("GET /v1/sessions/\(id)/stream answered \(response.status)")
        }
        return LiveStream(body: response.body)
    }
}
