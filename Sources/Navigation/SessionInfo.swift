/// The kind of client a session was created for; a flow may swap its coordinator per platform.
public enum Platform: String, Sendable, Codable, CaseIterable {
    case phone, tablet, web
}

/// The signed-in user of a session, as the state shows it.
public struct SessionUser: Sendable, Codable, Hashable {
    public var id: Int64
    public var displayName: String

    public init(id: Int64, displayName: String) {
        self.id = id
        self.displayName = displayName
    }

    var json: JSONValue { ["id": .int(Int(id)), "displayName": .string(displayName)] }
}
