import Navigation
import Store

/// Where apps differ in how their users sign in.
public struct SignInOptions: Sendable {
    /// How a new user registers.
    public enum Registration: Sendable {
        /// E-mail, then password, then display name: a screen each, with a draft kept across them.
        case steps
        /// Everything in one form.
        case oneForm
        /// One form on tablets, steps elsewhere.
        case byPlatform
    }

    public var registration: Registration
    /// What the alert asks before an account is deleted (its title is "Delete your account?").
    public var deletionWarning: String
    /// What other sessions were shown of a user whose account is deleted, beyond their name and
    /// e-mail (their posts, say): it leaves the journal of every session that showed it. Runs on
    /// the event's connection before the user's row is deleted.
    public var shownOfUser: @Sendable (_ user: Int64, _ connection: any SQLConnection) throws -> [String]

    public init(
        registration: Registration = .byPlatform,
        deletionWarning: String = "Delete your account? Enter your password to confirm.",
        shownOfUser: @escaping @Sendable (_ user: Int64, _ connection: any SQLConnection) throws -> [String] = { _, _ in [] }
    ) {
        self.registration = registration
        self.deletionWarning = deletionWarning
        self.shownOfUser = shownOfUser
    }
}
