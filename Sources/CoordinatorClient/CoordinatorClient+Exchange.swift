import Foundation

extension CoordinatorSession {
    /// Sends `request` until it gets a `2xx` (returned) or a problem to give up on (thrown), per
    /// `configuration.retry`: a lost answer, a `429`/`503` (after its `Retry-After`), a `409
    /// idempotency-key-in-flight`, or a proxy's `502`/`504` are tried again with the very same
    /// request, headers included, so an event's `Idempotency-Key` makes it apply at most once.
    func exchange(_ request: HTTPRequest, accepting extra: Set<Int> = []) async throws -> HTTPResponse {
        let policy = configuration.retry
        var attempt = 0
        while true {
            attempt += 1
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                guard attempt < policy.maxAttempts else {
                    throw CoordinatorClientError.unreachable("\(error) (after \(attempt) attempts)")
                }
                try await configuration.sleep(policy.backoff(after: attempt))
                continue
            }
            if (200..<300).contains(response.status) || extra.contains(response.status) { return response }
            let failure = Self.failure(of: response)
            guard attempt < policy.maxAttempts else { throw failure }
            switch failure {
            case let problem as CoordinatorProblem where problem.isTransient:
                let wait = problem.retryAfter ?? policy.backoff(after: attempt)
                guard wait <= policy.maxRetryAfter else { throw problem }
                try await configuration.sleep(wait)
            case CoordinatorClientError.unexpectedAnswer(let status, _) where [502, 503, 504].contains(status):
                try await configuration.sleep(policy.backoff(after: attempt))
            default:
                throw failure
            }
        }
    }

    /// The error an answer that is not a `2xx` stands for: its problem, or an unexpected answer.
    static func failure(of response: HTTPResponse) -> any Error {
        let unexpected = CoordinatorClientError.unexpectedAnswer(
            status: response.status, body: String(decoding: response.body.prefix(200), as: UTF8.self))
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: response.body),
            let type = json["type"]?.stringValue
        else { return unexpected }
        let errors = (json["errors"]?.arrayValue ?? []).map {
            CoordinatorProblem.FieldError(field: $0["field"]?.stringValue, message: $0["message"]?.stringValue ?? "")
        }
        var state: SessionState?
        if let carried = json["state"], carried.objectValue != nil,
            let data = try? JSONEncoder().encode(carried)
        {
            state = try? JSONDecoder().decode(SessionState.self, from: data)
        }
        return CoordinatorProblem(
            kind: CoordinatorProblem.Kind(rawValue: type), status: json["status"]?.intValue ?? response.status,
            title: json["title"]?.stringValue ?? "", detail: json["detail"]?.stringValue, errors: errors, state: state,
            retryAfter: response.headers["retry-after"].flatMap(Int.init).map { .seconds($0) })
    }

    /// `path` under the base URL.
    func url(_ path: String) -> URL {
        var base = configuration.baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        // Paths are built here from ids the server gave; they need no escaping.
        return URL(string: base + path)!
    }

    /// The headers of a call on `session`.
    func headers(_ session: SessionCredentials, json: Bool = false) -> [String: String] {
        var headers = ["Authorization": "Bearer \(session.token)", "Accept": "application/json"]
        if json { headers["Content-Type"] = "application/json" }
        return headers
    }

    /// Decodes a State from an answer's body.
    static func decodeState(_ response: HTTPResponse) throws -> SessionState {
        do {
            return try JSONDecoder().decode(SessionState.self, from: response.body)
        } catch {
            throw CoordinatorClientError.unexpectedAnswer(
                status: response.status, body: String(decoding: response.body.prefix(200), as: UTF8.self))
        }
    }
}
