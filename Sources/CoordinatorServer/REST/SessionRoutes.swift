import HTTPServer
import Metrics
import Navigation
import Secrets
import Sessions

/// The REST contract (api/openapi.yaml) over a `SessionService`. The service's errors answer as the
/// problems their `ProblemError` conformances say (`SessionError+Problem`).
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
        // The catalog in each of the app's languages, made once; each has its own version.
        // `language(for:)` picks one of `languages`, the app's own when none matches.
        let translations = service.app.translations
        let own = service.app.catalogDocument(in: translations.source)
        let catalogs = Dictionary(
            uniqueKeysWithValues: translations.languages.dropFirst().map { ($0, service.app.catalogDocument(in: $0)) })
        router.get("/v1/screens") { request in
            let language = translations.language(for: request.headers["Accept-Language"])
            let catalog = catalogs[language] ?? own
            // A client that has this catalog already (its version unchanged) is told so without it.
            let headers = HTTPHeaders([("ETag", catalog.etag), ("Content-Language", language), ("Vary", "Accept-Language")])
            if Self.matches(ifNoneMatch: request.headers["If-None-Match"], catalog.etag) {
                return HTTPResponse(status: 304, headers: headers)
            }
            return .json(bytes: catalog.bytes, headers: headers)
        }
    }

    /// The language `request` asks for (`Accept-Language`) among the app's; nil when the app has
    /// no translations (its flows then see its source language).
    private static func language(of request: HTTPRequest, _ service: SessionService) -> String? {
        let translations = service.app.translations
        return translations.tables.isEmpty ? nil : translations.language(for: request.headers["Accept-Language"])
    }

    /// Runs `body` with the session the path names, authenticated by the request's bearer token.
    private static func withSession(
        _ request: HTTPRequest, _ service: SessionService, _ body: (ResidentSession) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        // The router only calls these handlers for patterns with an `{id}` segment.
        try await service.withSession(id: request.pathParameters["id"] ?? "", token: request.bearerToken, body)
    }

    private static func create(_ request: HTTPRequest, _ service: SessionService) async throws -> HTTPResponse {
        var platform = Platform.phone
        var link: String?
        if !request.body.isEmpty {
            let body = try request.jsonObject()
            if let value = body["platform"] {
                guard let name = value.stringValue, let chosen = Platform(rawValue: name) else {
                    throw Problem(
                        .invalidPlatform, detail: "platform must be one of: phone, tablet, web.",
                        extensions: ["errors": [FieldError(field: "platform", message: "must be one of: phone, tablet, web")]])
                }
                platform = chosen
            }
            if let value = body["link"], value != .null {
                guard let text = value.stringValue else {
                    throw LinkRejection.invalid([FieldError(field: "link", message: "must be a string")])
                }
                link = text
            }
        }
        let created = try await service.create(
            platform: platform, link: link, clientAddress: request.clientAddress, language: Self.language(of: request, service))
        // {"session":<state>,"token":"..."}, with the state's bytes as rendered.
        let body = Array(#"{"session":"#.utf8) + created.state + Array(#","token":"#.utf8)
            + JSONValue.string(created.token).serialized() + Array("}".utf8)
        return .json(
            bytes: body, status: 201,
            headers: HTTPHeaders([("Location", "/v1/sessions/\(created.id)"), ("ETag", "\"1\"")]))
    }

    private nonisolated(nonsending) static func postEvent(
        _ request: HTTPRequest, _ service: SessionService
    ) async throws -> HTTPResponse {
        // Read member by member: the three it knows, the rest checked as JSON and left.
        var screenValue: JSONValue?
        var eventValue: JSONValue?
        var payload = JSONValue.null
        try request.jsonObjectMembers { key, value in
            switch key {
            case "screen": screenValue = value
            case "event": eventValue = value
            case "payload": payload = value
            default: break
            }
        }
        guard let screen = screenValue?.stringValue, let event = eventValue?.stringValue else {
            var errors: [FieldError] = []
            if screenValue?.stringValue == nil { errors.append(FieldError(field: "screen", message: "a string is required")) }
            if eventValue?.stringValue == nil { errors.append(FieldError(field: "event", message: "a string is required")) }
            throw Problem(
                .invalidBody, detail: "The body needs \"screen\" and \"event\" strings.", extensions: ["errors": errors])
        }
        let key = try Self.idempotencyKey(of: request)
        let ifMatch = try Self.ifMatch(of: request)
        let answer: StoredAnswer
        do {
            answer = try await service.post(
                EventRequest(
                    sessionID: request.pathParameters["id"]!, token: request.bearerToken,
                    event: IncomingEvent(screen: ScreenID(screen), name: event, payload: payload),
                    ifMatch: ifMatch,
                    idempotencyKey: key, requestHash: key == nil ? [] : Tokens.sha256(bytes: request.body),
                    clientAddress: request.clientAddress, deviceToken: request.headers["Device-Token"],
                    language: Self.language(of: request, service)))
        } catch {
            let kind = (error as? any ProblemError)?.problem.type ?? .internalError
            Counter(label: "coordinatord_events_refused_total", dimensions: [("reason", kind.reason)]).increment()
            throw error
        }
        return .json(bytes: answer.body, headers: HTTPHeaders([("ETag", "\"\(answer.version)\"")]))
    }
}
