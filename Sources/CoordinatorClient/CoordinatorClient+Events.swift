import Foundation

extension CoordinatorSession {
    /// Sends `event` of the top screen (or of `screen`, the one the user tapped) and returns the
    /// new State, which the client has adopted.
    ///
    /// - A rotated token (sign-in, sign-up, sign-out, a password change) and a device token are
    ///   saved in the store before this returns.
    /// - A lost answer is sent again with the same `Idempotency-Key`: the server applies the
    ///   event at most once and answers the retry with the first answer.
    /// - A stale tap (`409 stale-screen`) or, with `ifMatch`, a session that moved on (`412
    ///   version-mismatch`) adopts the State the problem carries, then throws the problem: the
    ///   event was not applied, and the shell shows what is current.
    /// - A `401` or `404` means the session ended (signed out elsewhere, expired): the client
    ///   forgets it and throws; `start()` begins a new one.
    ///
    /// - Parameters:
    ///   - event: the event's name, as the top screen declares it (`submit`) or a system event (`back`).
    ///   - payload: its payload's members; none for an event without one.
    ///   - screen: the screen it comes from; the top screen of the State shown when nil.
    ///   - ifMatch: apply only if the session is still at the version this client shows.
    @discardableResult
    public func send(
        _ event: String, payload: [String: JSONValue]? = nil, from screen: ScreenID? = nil, ifMatch: Bool = false
    ) async throws -> SessionState {
        try await serialized {
            guard let session = credentials.session, let shown = state else { throw CoordinatorClientError.noSession }
            guard let screen = screen ?? shown.top else { throw CoordinatorClientError.noTopScreen }
            var body: [String: JSONValue] = ["screen": .string(screen.rawValue), "event": .string(event)]
            if let payload { body["payload"] = .object(payload) }
            var headers = headers(session, json: true)
            // One key for every attempt of this event: what makes a retry safe.
            headers["Idempotency-Key"] = configuration.makeIdempotencyKey()
            if let device = credentials.deviceToken { headers["Device-Token"] = device }
            if ifMatch { headers["If-Match"] = "\"\(shown.version)\"" }
            let request = HTTPRequest(
                method: "POST", url: url("/v1/sessions/\(session.id)/events"), headers: headers,
                body: try JSONEncoder().encode(body))
            do {
                return try await absorb(try await exchange(request), session: session)
            } catch let problem as CoordinatorProblem {
                if let carried = problem.state { adopt(carried) }
                if problem.endsSession { await forgetSession() }
                throw problem
            }
        }
    }

    /// Sends what the user did natively (a back swipe, a sheet swiped down, a tab picked).
    @discardableResult
    public func perform(_ action: ShellAction) async throws -> SessionState {
        switch action {
        case .back: try await send("back")
        case .dismiss: try await send("dismiss")
        case .selectTab(let tab): try await send("selectTab", payload: ["tab": .string(tab)])
        case .open(let link): try await send("open", payload: ["link": .string(link)])
        }
    }

    /// Takes the State from an event's answer, after saving a rotated token and a device token.
    private func absorb(_ response: HTTPResponse, session: SessionCredentials) async throws -> SessionState {
        struct Carried: Decodable {
            var token: String?
            var deviceToken: String?
            var linkDropped: DroppedLink?
        }
        let new = try Self.decodeState(response)
        let carried = (try? JSONDecoder().decode(Carried.self, from: response.body)) ?? Carried()
        droppedLink = carried.linkDropped
        if carried.token != nil || carried.deviceToken != nil {
            var credentials = self.credentials
            if let token = carried.token { credentials.session = SessionCredentials(id: session.id, token: token) }
            if let device = carried.deviceToken { credentials.deviceToken = device }
            try await keep(credentials)
        }
        adopt(new)
        return new
    }
}

/// What a user does with the platform's own controls; the shell reports it to the server, which
/// decides what is shown (the swiped-away sheet stays until the answer says it is gone).
public enum ShellAction: Sendable, Hashable {
    /// A back button or an edge swipe: pops the top screen.
    case back
    /// A sheet swiped down: closes the top modal layer.
    case dismiss
    /// A tab picked in a tab bar, by its name.
    case selectTab(String)
    /// A link the app was opened with (`/posts/2`, from a universal link or a notification), in an
    /// app that declares links (the catalog's `links`): the server moves the session to its screen.
    case open(String)
}
