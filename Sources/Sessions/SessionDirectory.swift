import Navigation

/// A user's sessions as an app may see them (for "signed in on 3 devices", or to pick one to end).
public struct UserSession: Sendable, Hashable {
    /// A short, non-secret label of the session (not its id, which would let it be addressed).
    public let label: String
    /// When it was created, in seconds since 1970.
    public let createdAt: Int64
    /// When it was last used, in seconds since 1970.
    public let lastUsedAt: Int64
    /// True for the session the event runs in.
    public let isCurrent: Bool

    /// A session as the directory describes it.
    public init(label: String, createdAt: Int64, lastUsedAt: Int64, isCurrent: Bool) {
        self.label = label
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.isCurrent = isCurrent
    }
}

/// Looks up sessions by user, for account-level session control. The session service puts one
/// in every event's environment, bound to the event's own store connection.
public protocol SessionDirectory: Sendable {
    /// The live sessions signed in as user `id`, most recently used first.
    func sessions(ofUser id: Int64) throws -> [UserSession]
}

/// The directory in an environment, whatever its concrete type.
struct AnySessionDirectory: Sendable {
    let directory: any SessionDirectory
}

extension Environment {
    /// Makes `directory` what `Context.sessions(ofUser:)` asks.
    public mutating func setSessionDirectory(_ directory: any SessionDirectory) {
        set(AnySessionDirectory(directory: directory))
    }
}

extension Context {
    /// The live sessions of user `id` (sign out everywhere is `endOtherSessions(ofUser:)`).
    public func sessions(ofUser id: Int64) throws -> [UserSession] {
        try environment.require(AnySessionDirectory.self).directory.sessions(ofUser: id)
    }
}
