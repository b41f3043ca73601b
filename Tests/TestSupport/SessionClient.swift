import Foundation

/// A client of one session over the real HTTP API: it keeps the token (replacing it when an
/// answer rotates it), the device token an answer gave, and the last State, and taps the top screen.
public struct SessionClient: Sendable {
    public let port: UInt16
    public let id: String
    public var token: String
    /// The `deviceToken` the last answer that carried one gave (not part of the State).
    public var deviceToken: String?
    /// The last State received, as JSON text (kept as text so the client stays Sendable).
    public private(set) var stateText: String

    public var state: [String: Any] { Self.parse(stateText) }
    public var version: Int { state["version"] as? Int ?? 0 }
    public var top: String { state["top"] as? String ?? "" }

    /// The top screen's name, props and events.
    public var topScreen: (name: String, props: [String: Any], events: [String]) {
        let screen = Self.screens(in: state).first { $0["id"] as? String == top } ?? [:]
        return (screen["name"] as? String ?? "", screen["props"] as? [String: Any] ?? [:], screen["events"] as? [String] ?? [])
    }

    /// Every screen of every layer and tab, bottom to top.
    public static func screens(in state: [String: Any]) -> [[String: Any]] {
        (state["stack"] as? [[String: Any]] ?? []).flatMap { layer -> [[String: Any]] in
            if let tabs = layer["tabs"] as? [[String: Any]] { return tabs.flatMap { $0["screens"] as? [[String: Any]] ?? [] } }
            return layer["screens"] as? [[String: Any]] ?? []
        }
    }

    public static func parse(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    public static func json(_ object: Any) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }

    /// Creates a session (`headers`: `X-Forwarded-For`, say).
    public static func create(port: UInt16, platform: String? = nil, headers: [String: String] = [:]) async throws
        -> SessionClient
    {
        let body = platform.map { json(["platform": $0]) } ?? "{}"
        let response = try await TestHTTP.request(
            port: port, "POST", "/v1/sessions", headers: ["Content-Type": "application/json"].merging(headers) { $1 },
            body: body)
        guard response.status == 201, let token = response.json["token"] as? String,
            let session = response.json["session"] as? [String: Any], let id = session["id"] as? String
        else { throw TestClientError(description: "create failed: \(response.status) \(response.text)") }
        return SessionClient(port: port, id: id, token: token, stateText: json(session))
    }

    public init(port: UInt16, id: String, token: String, stateText: String) {
        self.port = port
        self.id = id
        self.token = token
        self.stateText = stateText
    }

    /// Posts `event` from `screen` (the top one by default). A `200` updates the state and token.
    @discardableResult
    public mutating func send(
        _ event: String, _ payload: [String: Any]? = nil, screen: String? = nil, headers: [String: String] = [:]
    ) async throws -> TestResponse {
        var body: [String: Any] = ["screen": screen ?? top, "event": event]
        if let payload { body["payload"] = payload }
        let response = try await TestHTTP.request(
            port: port, "POST", "/v1/sessions/\(id)/events",
            headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"].merging(headers) { $1 },
            body: Self.json(body))
        if response.status == 200 { absorb(response) }
        return response
    }

    /// Takes the state (and a rotated token) from a `200` answer.
    public mutating func absorb(_ response: TestResponse) {
        var state = response.json
        if let rotated = state.removeValue(forKey: "token") as? String { token = rotated }
        if let device = state.removeValue(forKey: "deviceToken") as? String { deviceToken = device }
        stateText = Self.json(state)
    }

    /// `GET` the session; a `200` updates the state.
    @discardableResult
    public mutating func refresh() async throws -> TestResponse {
        let response = try await get("")
        if response.status == 200 { stateText = response.text }
        return response
    }

    /// `GET /v1/sessions/{id}<suffix>` with this session's token.
    public func get(_ suffix: String) async throws -> TestResponse {
        try await TestHTTP.request(port: port, "GET", "/v1/sessions/\(id)\(suffix)", headers: ["Authorization": "Bearer \(token)"])
    }
}
