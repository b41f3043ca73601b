import HTTPServer
import Navigation
import Sessions

/// A session's history and its State at past versions, for the session itself (its bearer
/// token) and for operators (the operator key), who may also read any session's tree and State.
struct HistoryRoutes: Sendable {
    let service: SessionService
    let operators: OperatorAccess

    func register(in router: inout Router) {
        let (service, operators) = (self.service, self.operators)
        router.get("/v1/sessions/{id}/history") { request in
            try await service.withSession(id: Self.id(request), token: request.bearerToken) { session in
                try await Self.history(request, service, for: .session(user: session.userID))
            }
        }
        router.get("/v1/sessions/{id}/history/{version}") { request in
            try await service.withSession(id: Self.id(request), token: request.bearerToken) { session in
                try await Self.state(request, service, for: .session(user: session.userID))
            }
        }
        router.get("/v1/operator/sessions/{id}") { request in
            try operators.check(request)
            switch try await service.storedState(ofSession: Self.id(request)) {
            case nil: throw Self.noSession
            case .found(let state)?: return .json(bytes: state)
            case .wouldStartOver(let version, let reason)?: throw Self.startsOver(Self.id(request), version, reason)
            }
        }
        router.get("/v1/operator/sessions/{id}/tree") { request in
            try operators.check(request)
            switch try await service.storedTree(ofSession: Self.id(request)) {
            case nil: throw Self.noSession
            case .found(let found)?: return .json(bytes: found.tree.serialized())
            case .wouldStartOver(let version, let reason)?: throw Self.startsOver(Self.id(request), version, reason)
            }
        }
        router.get("/v1/operator/sessions/{id}/history") { request in
            try operators.check(request)
            return try await Self.history(request, service, for: .operator)
        }
        router.get("/v1/operator/sessions/{id}/history/{version}") { request in
            try operators.check(request)
            return try await Self.state(request, service, for: .operator)
        }
    }

    // The router only calls these handlers for patterns with an `{id}` segment.
    private static func id(_ request: HTTPRequest) -> String { request.pathParameters["id"] ?? "" }

    private static let noSession = Problem(.sessionNotFound, detail: "No such session.")

    /// The session is stored, but this build cannot restore its snapshot.
    private static func startsOver(_ id: String, _ version: Int, _ reason: String) -> Problem {
        Problem(
            .sessionWouldStartOver,
            detail: "Session \(id) is stored at version \(version), but this build cannot restore it: \(reason). "
                + "Its next request starts it over, signed-in user kept.",
            extensions: ["version": version, "reason": reason])
    }

    /// A page of the journal, newest first: `?limit=` (1 to 200, 50 by default), `?before=<cursor>`.
    private static func history(_ request: HTTPRequest, _ service: SessionService, for reader: HistoryReader)
        async throws -> HTTPResponse
    {
        let limit = try number(request.query["limit"], name: "limit", range: 1...200) ?? 50
        let before = try number(request.query["before"], name: "before", range: 1...Int.max).map(Int64.init)
        return .json(bytes: try await service.history(ofSession: id(request), before: before, limit: limit, for: reader)
            .serialized())
    }

    /// The State at `{version}`, as the journal recorded it.
    private static func state(_ request: HTTPRequest, _ service: SessionService, for reader: HistoryReader)
        async throws -> HTTPResponse
    {
        guard let version = try number(request.pathParameters["version"], name: "version", range: 1...Int.max) else {
            throw Problem(.invalidQuery, detail: "Name a version.")
        }
        guard let state = try await service.state(ofSession: id(request), atVersion: version, for: reader) else {
            throw Problem(
                .versionNotRetained, detail: "The journal does not hold version \(version) of this session.")
        }
        return .json(bytes: state, headers: HTTPHeaders([("ETag", "\"\(version)\"")]))
    }

    private static func number(_ text: String?, name: String, range: ClosedRange<Int>) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw Problem(.invalidQuery, detail: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }
}
