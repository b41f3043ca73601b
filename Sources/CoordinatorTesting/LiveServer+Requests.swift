import Navigation

extension LiveServer {
    /// Sends a request to the server and returns its answer; `json`, when given, is the body
    /// (with `Content-Type: application/json`). A server that does not answer within the
    /// deadline fails the request.
    public func request(
        _ method: String, _ path: String, json: JSONValue? = nil, headers: [(String, String)] = []
    ) async throws -> LiveResponse {
        var headers = headers
        if json != nil { headers.append(("Content-Type", "application/json")) }
        return try await HTTPExchange.run(
            port: port, method, path, headers: headers, body: json?.serialized() ?? [],
            seconds: Int(deadline.components.seconds))
    }

    /// A new session for `platform` (`POST /v1/sessions`); throws unless the server answers `201`.
    public func newSession(platform: String? = nil) async throws -> LiveSession {
        let body: JSONValue = .object(platform.map { ["platform": .string($0)] } ?? [:])
        let answer = try await request("POST", "/v1/sessions", json: body)
        guard answer.status == 201, let token = answer.json?["token"]?.stringValue, let state = answer.json?["session"],
            let id = state["id"]?.stringValue
        else { throw LiveServerError("POST /v1/sessions answered \(answer.status): \(answer.text)") }
        return LiveSession(server: self, id: id, token: token, state: state)
    }
}
