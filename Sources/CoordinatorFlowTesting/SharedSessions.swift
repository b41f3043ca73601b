import SQLiteStore
import Navigation
import Sessions

/// What the sessions of one tested app share: the flow runner (the app's environment and the
/// hash pool), the database, the clock, and who is signed in where, so that an event that ends
/// a user's other sessions (`Context.endOtherSessions`) ends them here too, as the server does.
final class SharedSessions {
    let flows: FlowRunner
    let database: SQLiteConnection
    let clock: ManualClock
    /// The app's effect handlers, as its start-up built them.
    let effects: EffectHandlers
    private var sessions = 0
    private var effectCount = 0
    /// The signed-in user of each live session.
    private var users: [String: Int64?] = [:]
    private var ended: Set<String> = []

    init(flows: FlowRunner, database: SQLiteConnection, clock: ManualClock, effects: EffectHandlers) {
        self.flows = flows
        self.effects = effects
        self.database = database
        self.clock = clock
    }

    /// A new effect's idempotency key.
    func newEffectID() -> String {
        effectCount += 1
        return "effect-\(effectCount)"
    }

    func newSessionID() -> String {
        sessions += 1
        return "session-\(sessions)"
    }

    /// `session` is signed in as `user` (or signed out) now.
    func signedIn(_ user: Int64?, session: String) {
        users[session] = user
    }

    /// Ends the sessions of `ofUsers` but `session`, as the server deletes them with the event's commit.
    func endSessions(ofUsers ended: Set<Int64>, except session: String) {
        for (id, user) in users where id != session && user.map(ended.contains) == true {
            self.ended.insert(id)
            users[id] = nil
        }
    }

    /// Whether `session` was ended by another session's event.
    func hasEnded(_ session: String) -> Bool { ended.contains(session) }
}
