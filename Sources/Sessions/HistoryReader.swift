import SessionStorage
import Store

/// Who reads a session's history, and so where it starts.
///
/// Signing in and signing out are boundaries: on a shared device, whoever holds the session's
/// token after a sign-out (or signs in on it after) must not read what the previous user did or
/// was shown. So a session's own token reads from the first version of its current principal on;
/// an operator reads all of it.
package enum HistoryReader: Sendable {
    /// The session's own token, with `user` signed in now (nil: signed out).
    case session(user: Int64?)
    /// An operator, with the operator credential.
    case `operator`

    /// The last version this reader may not read (0: none).
    func began(_ tables: any SessionPersistence, _ connection: any SQLConnection, session: String) throws -> Int {
        switch self {
        case .operator: 0
        case .session(let user): try tables.principalBegan(session: session, user: user, on: connection)
        }
    }
}
