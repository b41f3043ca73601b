import Foundation

/// What a live stream reports, besides the States it adopts.
public enum LiveUpdate: Sendable, Hashable {
    /// A newer State, already adopted (`state` is it, and `states()` saw it too).
    case state(SessionState)
    /// The server lost (`false`) or regained (`true`) its link to changes made through other
    /// nodes: until it is back, this device may miss other devices' changes.
    case status(connected: Bool)
    /// The stream broke (or the server is draining); it reconnects after `after`, resuming from
    /// the last State with `Last-Event-ID`.
    case reconnecting(attempt: Int, after: Duration)
}

/// The stream ended for good: the session's token no longer opens it (`signed-out` on another
/// device, `token-rotated`), or it ended (`session-ended`, `session-expired`). A shell then
/// calls `start()`, which makes a new session when the old one is gone.
public struct LiveStreamEnded: Error, Sendable, Hashable {
    /// The server's reason (`StreamEnded.reason` in the OpenAPI document).
    public let reason: String
}

extension CoordinatorSession {
    /// The session's live stream (`GET /v1/sessions/{id}/stream`): each State another device, a
    /// server-side effect or this one committed, adopted as answers are (`adopt`, so `state` and
    /// `states()` follow it), and reported here. It resumes from the State held (`Last-Event-ID`),
    /// reconnects after a broken connection, a silence longer than `idleTimeout` (the server
    /// sends a heartbeat every 15 s by default) or a server's drain, waiting per
    /// `configuration.retry` (without its attempt limit), and follows this client's own rotated
    /// token (a sign-in here). It ends by throwing `LiveStreamEnded` (or the problem that refused
    /// it: `401`, `404`), or when the consumer stops reading. Call `start()` first.
    public nonisolated func live(
        idleTimeout: Duration = .seconds(45), transport: any StreamTransport = defaultStreamTransport()
    ) -> AsyncThrowingStream<LiveUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.followLive(idleTimeout: idleTimeout, transport: transport) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func followLive(
        idleTimeout: Duration, transport: any StreamTransport, report: @Sendable (LiveUpdate) -> Void
    ) async throws {
        var failures = 0
        while !Task.isCancelled {
            guard let session = credentials.session else { throw CoordinatorClientError.noSession }
            var headers = ["Authorization": "Bearer \(session.token)", "Accept": "text/event-stream"]
            if let state, state.id == session.id { headers["Last-Event-ID"] = String(state.version) }
            let request = HTTPRequest(method: "GET", url: url("/v1/sessions/\(session.id)/stream"), headers: headers)
            var reconnectAtOnce = false
            do {
                let response = try await transport.open(request, idleTimeout: idleTimeout)
                guard response.status == 200 else {
                    var body = Data()
                    for try await part in response.body { body += part }
                    let failure = Self.failure(of: HTTPResponse(status: response.status, headers: response.headers, body: body))
                    if let problem = failure as? CoordinatorProblem, problem.isTransient {
                        throw StreamTransportError.connection("the server answered \(response.status)")
                    }
                    throw failure
                }
                failures = 0
                var parser = ServerSentEventParser()
                frames: for try await part in response.body {
                    for frame in parser.feed(part) {
                        switch frame.event {
                        case nil, "message"?:
                            guard let new = try? JSONDecoder().decode(SessionState.self, from: Data(frame.data.utf8)) else { continue }
                            if adopt(new) { report(.state(new)) }
                        case "status"?:
                            let status = try? JSONDecoder().decode([String: Bool].self, from: Data(frame.data.utf8))
                            if let connected = status?["connected"] { report(.status(connected: connected)) }
                        case "ended"?:
                            let ended = try? JSONDecoder().decode(JSONValue.self, from: Data(frame.data.utf8))
                            let reason = ended?["reason"]?.stringValue ?? "unknown"
                            // A token this client itself rotated (a sign-in here): its answer may
                            // still be on its way, so the call that sent it is waited for.
                            if reason == "token-rotated" { try await serialized {} }
                            // A drain, or that rotation: follow at once.
                            if ended?["reconnect"]?.boolValue == true
                                || (reason == "token-rotated" && credentials.session?.token != session.token)
                            {
                                reconnectAtOnce = true
                                break frames
                            }
                            throw LiveStreamEnded(reason: reason)
                        default:
                            continue
                        }
                    }
                }
            } catch let error as StreamTransportError {
                if case .unsupportedURL = error { throw error }
            } catch let error as URLError {
                _ = error  // a connection that broke: reconnect below
            }
            if Task.isCancelled { return }
            if reconnectAtOnce { continue }
            failures += 1
            let wait = configuration.retry.backoff(after: failures)
            report(.reconnecting(attempt: failures, after: wait))
            try await configuration.sleep(wait)
        }
    }
}
