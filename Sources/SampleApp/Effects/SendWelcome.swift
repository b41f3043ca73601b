import Navigation

/// The welcome message a new user gets once registered: asked for by the app coordinator when
/// the auth flow finishes with a registration, sent after that commit (`WelcomeMessages`).
public struct SendWelcome: Effect, Hashable {
    public typealias Result = WelcomeSent
    public static let name = "sendWelcome"
    /// A mail relay that is down for a while is tried for about an hour, further apart each time.
    public static let retry = EffectRetry(maxAttempts: 12, firstDelaySeconds: 2, maxDelaySeconds: 600)

    public var userId: Int64
    public var email: String
    public var displayName: String
}

/// What sending the welcome message did.
public struct WelcomeSent: Codable, Sendable, Hashable {
    /// `sent` (the relay took it), or why it was not sent (no relay configured).
    public var delivery: String
}
