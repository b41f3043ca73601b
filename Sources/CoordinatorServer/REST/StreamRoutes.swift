import HTTPServer
import Navigation
import Sessions

/// `GET /v1/sessions/{id}/stream`: the session's States as Server-Sent Events (see `LiveStream`).
struct StreamRoutes: Sendable {
    let service: SessionService
    let metrics: LiveMetrics

    func register(in router: inout Router) {
        let (service, metrics) = (service, metrics)
        router.get("/v1/sessions/{id}/stream") { request in try await Self.open(request, service, metrics) }
    }

    private static func open(_ request: HTTPRequest, _ service: SessionService, _ metrics: LiveMetrics) async throws
        -> HTTPResponse
    {
        let lastEventID = try lastEventID(of: request)
        let id = request.pathParameters["id"] ?? ""
        // A stream's body is chunked and ends only with the stream: HTTP/1.0 has neither.
        guard request.version != "HTTP/1.0" else {
            throw Problem(.malformedRequest, detail: "A live stream needs HTTP/1.1.")
        }
        // HEAD: what a GET would answer, without its body, and no stream opened or counted.
        if request.method == "HEAD" {
            try await service.withSession(id: id, token: request.bearerToken) { _ in }
            var response = HTTPResponse.eventStream(EventStream())
            response.eventStream = nil
            return response
        }
        let stream = LiveStream(sessionID: id, service: service, metrics: metrics)
        do {
            try await service.openStream(
                id: id, token: request.bearerToken, lastEventID: lastEventID, client: request.clientAddress,
                subscriber: stream)
        } catch let refusal as LiveRefusal {
            metrics.refused(refusal)
            throw refusal.problem
        }
        metrics.opened()
        return .eventStream(stream.body)
    }

    /// `Last-Event-ID`: the version the client saw last (a non-negative integer), if sent.
    static func lastEventID(of request: HTTPRequest) throws -> Int? {
        guard let value = request.headers["Last-Event-ID"] else { return nil }
        guard let version = Int(value.trimmingOptionalWhitespace()), version >= 0 else {
            throw Problem(
                .invalidHeader, detail: "Last-Event-ID is the version of the last State received: an integer, 0 or more.",
                extensions: ["errors": [FieldError(field: "Last-Event-ID", message: "must be an integer, 0 or more")]])
        }
        return version
    }
}

extension LiveRefusal {
    /// `429` when this session or client has as many streams as it may, `503` when the node is full.
    var problem: Problem {
        switch self {
        case .perSession(let limit):
            Problem(
                .tooManyStreams, detail: "This session has \(limit) live streams open; close one first.",
                headers: HTTPHeaders([("Retry-After", "5")]))
        case .perClient(let limit):
            Problem(
                .tooManyStreams, detail: "This client has \(limit) live streams open; close one first.",
                headers: HTTPHeaders([("Retry-After", "5")]))
        case .node(let limit):
            Problem(
                .streamCapacity, detail: "This server holds \(limit) live streams, its most; retry on another node.",
                headers: HTTPHeaders([("Retry-After", "5")]))
        }
    }
}
