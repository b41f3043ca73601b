/// The kind of client a session was created for; a flow may swap its coordinator per platform.
public enum Platform: String, Sendable, Codable, CaseIterable {
    case phone, tablet, web
}

/// The signed-in user of a session, as the state shows it.
public struct SessionUser: Sendable, Codable, Hashable {
    /// The user's id in the app's store; never reused.
    public var id: Int64
    /// The name the session shows.
    public var displayName: String

    /// User `id`, shown as `displayName`.
    public init(id: Int64, displayName: String) {
        self.id = id
        self.displayName = displayName
    }

    /// Writes `user` as the State and snapshots show it, `{"displayName":…,"id":…}`, or `null`.
    static func write(_ user: SessionUser?, to output: inout [UInt8]) {
        guard let user else { return output.appendLiteral("null") }
        output.appendLiteral(#"{"displayName":"#)
        JSONValue.writeString(user.displayName, to: &output)
        output.appendLiteral(#","id":"#)
        output.appendDecimal(Int(user.id))
        output.append(UInt8(ascii: "}"))
    }
}
