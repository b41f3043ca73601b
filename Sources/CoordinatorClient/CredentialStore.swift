import Foundation

/// What a client keeps between launches: the session it resumes, and the device credential
/// that outlives sessions.
public struct Credentials: Sendable, Hashable, Codable {
    /// The session's id and its current bearer token, or nil when there is none to resume.
    public var session: SessionCredentials?
    /// The `deviceToken` a sign-in or registration gave this device; kept when sessions end.
    public var deviceToken: String?

    public init(session: SessionCredentials? = nil, deviceToken: String? = nil) {
        (self.session, self.deviceToken) = (session, deviceToken)
    }
}

/// A session's id and bearer token.
public struct SessionCredentials: Sendable, Hashable, Codable {
    public var id: String
    public var token: String

    public init(id: String, token: String) { (self.id, self.token) = (id, token) }
}

/// Where the app keeps the client's credentials: the Keychain on Apple platforms, a file, or
/// memory. The client saves every change (a new session, a rotated token, a device token)
/// before it returns the answer that carried it.
public protocol CredentialStore: Sendable {
    func load() async throws -> Credentials
    func save(_ credentials: Credentials) async throws
}

/// Keeps credentials in memory only: a session lasts as long as the process.
public actor InMemoryCredentialStore: CredentialStore {
    private var credentials: Credentials

    public init(_ credentials: Credentials = Credentials()) { self.credentials = credentials }

    public func load() -> Credentials { credentials }
    public func save(_ credentials: Credentials) { self.credentials = credentials }
}
