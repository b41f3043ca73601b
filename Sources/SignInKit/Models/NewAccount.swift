/// An account registration just made; the session is signed in as it.
public struct NewAccount: Equatable, Sendable {
    public let id: Int64
    public let email: String
    public let displayName: String
}
