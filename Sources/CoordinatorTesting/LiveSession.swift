import Navigation

/// A session on a `LiveServer`, driven as a client drives it: it keeps the latest State and the
/// token (rotated when an answer carries a new one), and sends events from the top screen.
public struct LiveSession: Sendable {
    /// The server it lives on.
    public let server: LiveServer
    /// The session's id.
    public let id: String
    /// The bearer token, as the latest answer left it.
    public private(set) var token: String
    /// The latest State the server sent.
    public private(set) var state: JSONValue
    /// The `Device-Token` sent with each event, if any.
    public var deviceToken: String?

    init(server: LiveServer, id: String, token: String, state: JSONValue) {
        self.server = server
        self.id = id
        self.token = token
        self.state = state
    }

    /// The top screen of the latest State: its `id`, `name`, `props` and `events`.
    public var top: JSONValue? {
        guard let top = state["top"]?.stringValue else { return nil }
        for layer in state["stack"]?.arrayValue ?? [] {
            let stacks = (layer["tabs"]?.arrayValue ?? []).map { $0["screens"] } + [layer["screens"]]
            for screens in stacks {
                if let screen = screens?.arrayValue?.first(where: { $0["id"]?.stringValue == top }) { return screen }
            }
        }
        return nil
    }

    /// The name of the top screen.
    public var topName: String? { top?["name"]?.stringValue }

    /// The props of the top screen, which must be a `screen`, as its typed props.
    public func props<S: ScreenType>(of screen: S.Type) throws -> S.Props {
        guard let top, top["name"]?.stringValue == S.name else {
            throw NavigationError("the top screen is \(topName ?? "none"), not \(S.name)")
        }
        return try JSONValue.decode(S.Props.self, from: top["props"] ?? .object([:]))
    }

    /// Sends `output` from the top screen, which must be a `screen`; see `send(_:_:)`.
    @discardableResult
    public mutating func send<S: ScreenType>(_ screen: S.Type, _ output: S.Output) async throws -> LiveResponse {
        guard topName == S.name, let id = top?["id"]?.stringValue else {
            throw NavigationError("the top screen is \(topName ?? "none"), not \(S.name)")
        }
        let event = try IncomingEvent(screen, output, on: ScreenID(id))
        return try await send(event.name, event.payload)
    }

    /// Posts event `name` with `payload` from the top screen; on `200` the State (and the token,
    /// when it rotated) are the answer's. Returns the answer whatever its status.
    @discardableResult
    public mutating func send(_ name: String, _ payload: JSONValue = .null) async throws -> LiveResponse {
        var event: [String: JSONValue] = ["screen": state["top"] ?? .null, "event": .string(name)]
        if payload != .null { event["payload"] = payload }
        var headers = [("Authorization", "Bearer \(token)")]
        if let deviceToken { headers.append(("Device-Token", deviceToken)) }
        let answer = try await server.request("POST", "/v1/sessions/\(id)/events", json: .object(event), headers: headers)
        if answer.status == 200, let state = answer.json {
            if let rotated = state["token"]?.stringValue { token = rotated }
            self.state = state
        }
        return answer
    }

    /// Reads the session's State again until `condition` holds (an effect's result came back, another
    /// device's event arrived), every few milliseconds for at most `deadline`; throws with the last
    /// State when it never does.
    public mutating func refresh(until condition: (LiveSession) throws -> Bool, deadline: Duration = .seconds(30)) async throws {
        var wait = PollingDeadline(deadline)
        while true {
            try await refresh()
            if try condition(self) { return }
            if wait.hasPassed() {
                throw LiveServerError("the session never got there within \(deadline); its State: \(state.serializedString)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Reads the session's State again (`GET /v1/sessions/{id}`); throws unless `200`.
    public mutating func refresh() async throws {
        let answer = try await server.request("GET", "/v1/sessions/\(id)", headers: [("Authorization", "Bearer \(token)")])
        guard answer.status == 200, let state = answer.json else {
            throw LiveServerError("GET /v1/sessions/\(id) answered \(answer.status): \(answer.text)")
        }
        self.state = state
    }
}
