import Foundation

extension CoordinatorSession {
    /// Resumes the session the store holds, or creates one when there is none or it has ended
    /// (its token is dead, it expired). Returns the State to show.
    ///
    /// - Parameter link: a link the app was opened with (a universal link's path, `/posts/7`):
    ///   a new session is created at it in the same request, and a resumed one opens it (the
    ///   system event `open`), so the user never sees the first-run screen on the way. A link
    ///   the server refuses throws its problem; the session is there all the same.
    @discardableResult
    public func start(at link: String? = nil) async throws -> SessionState {
        let resumed = try await serialized { () async throws -> Bool in
            credentials = try await store.load()
            if let session = credentials.session {
                do {
                    _ = try await read(session)
                    return true
                } catch let problem as CoordinatorProblem where problem.endsSession {
                    await forgetSession()
                }
            }
            _ = try await create(at: link)
            return false
        }
        if resumed, let link, state?.link != link {
            return try await send("open", payload: ["link": .string(link)])
        }
        return state!
    }

    /// Reads the session's State again (after the app comes back to the foreground, say).
    @discardableResult
    public func refresh() async throws -> SessionState {
        try await serialized {
            guard let session = credentials.session else { throw CoordinatorClientError.noSession }
            do {
                return try await read(session)
            } catch let problem as CoordinatorProblem where problem.endsSession {
                await forgetSession()
                throw problem
            }
        }
    }

    /// Deletes the session on the server; its token is dead afterwards and `state` is nil.
    public func endSession() async throws {
        try await serialized {
            guard let session = credentials.session else { return }
            let request = HTTPRequest(method: "DELETE", url: url("/v1/sessions/\(session.id)"), headers: headers(session))
            do {
                _ = try await exchange(request)
            } catch let problem as CoordinatorProblem where problem.endsSession {
                // Already gone: what was asked is done.
            }
            await forgetSession()
            state = nil
        }
    }

    private func read(_ session: SessionCredentials) async throws -> SessionState {
        let response = try await exchange(
            HTTPRequest(method: "GET", url: url("/v1/sessions/\(session.id)"), headers: headers(session)))
        adopt(try Self.decodeState(response))
        return state!
    }

    /// Creates a session. A lost answer is retried too: the session it may have made is never
    /// used, and the server soon expires a session that had no event.
    private func create(at link: String? = nil) async throws -> SessionState {
        var fields = ["platform": configuration.platform.rawValue]
        if let link { fields["link"] = link }
        let body = try JSONEncoder().encode(fields)
        let response = try await exchange(
            HTTPRequest(
                method: "POST", url: url("/v1/sessions"),
                headers: ["Content-Type": "application/json", "Accept": "application/json"], body: body))
        struct Created: Decodable {
            var token: String
            var session: SessionState
        }
        guard let created = try? JSONDecoder().decode(Created.self, from: response.body) else {
            throw CoordinatorClientError.unexpectedAnswer(
                status: response.status, body: String(decoding: response.body.prefix(200), as: UTF8.self))
        }
        var credentials = self.credentials
        credentials.session = SessionCredentials(id: created.session.id, token: created.token)
        try await keep(credentials)
        adopt(created.session)
        return created.session
    }
}
