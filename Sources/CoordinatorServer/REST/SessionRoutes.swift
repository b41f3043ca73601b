import HTTPServer
import Navigation
import Secrets
import Sessions

/// The REST contract of DESIGN §4 over a `SessionService`.
struct SessionRoutes: Sendable {
    let service: SessionService

    init(service: SessionService) {
        self.service = service
    }

    func register(in router: inout Router) {
        let service = self.service
        router.post("/v1/sessions") { request in try await Self.create(request, service) }
        router.get("/v1/sessions/{id}") { request in
            try await Self.withSession(request, service) { session in
                let (state, version) = service.state(of: session)
                return .json(bytes: state, headers: HTTPHeaders([("ETag", "\"\(version)\"")]))
            }
        }
        router.post("/v1/sessions/{id}/events") { request in try await Self.postEvent(request, service) }
        router.delete("/v1/sessions/{id}") { request in
            try await Self.withSession(request, service) { session in
                try await service.delete(session)
                return HTTPResponse(status: 204)
            }
        }
        router.get("/v1/sessions/{id}/tree") { request in
            try await Self.withSession(request, service) { session in
                .json(bytes: service.tree(of: session).serialized())
            }
        }
        let catalog = service.app.catalog().serialized()
        router.get("/v1/screens") { _ in .json(bytes: catalog) }
    }

    /// Runs `body` with the session the path names, authenticated by the request's bearer token.
    private static func withSession(
        _ request: HTTPRequest, _ service: SessionService, _ body: (ResidentSession) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        try await guarded {
            // The router only calls these handlers for patterns with an `{id}` segment.
            try await service.withSession(id: request.pathParameters["id"] ?? "", token: request.bearerToken, body)
        }
    }

    private static func create(_ request: HTTPRequest, _ service: SessionService) async throws -> HTTPResponse {
        try await guarded {
            var platform = Platform.phone
            if !request.body.isEmpty {
                let body = try request.jsonObject()
                if let value = body["platform"] {
                    guard let name = value.stringValue, let chosen = Platform(rawValue: name) else {
                        throw Problem.unprocessable(
                            "platform must be one of: phone, tablet, web.",
                            errors: [FieldError(field: "platform", message: "must be one of: phone, tablet, web")])
                    }
                    platform = chosen
                }
            }
            let created = try await service.create(platform: platform, clientAddress: request.clientAddress)
            // {"session":<state>,"token":"..."}, with the state's bytes as rendered.
            let body = Array(#"{"session":"#.utf8) + created.state + Array(#","token":"#.utf8)
                + JSONValue.string(created.token).serialized() + Array("}".utf8)
            return .json(
                bytes: body, status: 201,
                headers: HTTPHeaders([("Location", "/v1/sessions/\(created.id)"), ("ETag", "\"1\"")]))
        }
    }

    private static func postEvent(_ request: HTTPRequest, _ service: SessionService) async throws -> HTTPResponse {
        try await guarded {
            let body = try request.jsonObject()
            guard let screen = body["screen"]?.stringValue, let event = body["event"]?.stringValue else {
                var errors: [FieldError] = []
                if body["screen"]?.stringValue == nil { errors.append(FieldError(field: "screen", message: "a string is required")) }
                if body["event"]?.stringValue == nil { errors.append(FieldError(field: "event", message: "a string is required")) }
                throw Problem(
                    status: 400, detail: "The body needs \"screen\" and \"event\" strings.", extensions: ["errors": errors])
            }
            let key = try Self.idempotencyKey(of: request)
            let ifMatch = try Self.ifMatch(of: request)
            let answer = try await service.post(
                EventRequest(
                    sessionID: request.pathParameters["id"]!, token: request.bearerToken,
                    event: IncomingEvent(screen: ScreenID(screen), name: event, payload: body["payload"] ?? .null),
                    ifMatch: ifMatch,
                    idempotencyKey: key, requestHash: Tokens.sha256(bytes: request.body),
                    clientAddress: request.clientAddress, deviceToken: request.headers["Device-Token"]))
            return .json(bytes: answer.body, headers: HTTPHeaders([("ETag", "\"\(answer.version)\"")]))
        }
    }

    /// Runs `body`, turning the service's errors into problems.
    static func guarded(_ body: () async throws -> HTTPResponse) async throws -> HTTPResponse {
        do {
            return try await body()
        } catch let error as SessionError {
            throw error.problem
        } catch let rejection as EventRejection {
            throw rejection.problem
        } catch let throttled as EventThrottled {
            throw SessionError.throttled(throttled).problem
        } catch let busy as PasswordPoolBusy {
            throw Problem(
                status: 503, detail: "Too many password checks are waiting; retry shortly. Nothing was changed.",
                headers: HTTPHeaders([("Retry-After", String(busy.retryAfterSeconds))]))
        }
    }
}
