import Navigation
import Secrets
import Synchronization

/// A session held in memory: its tree and the facts that authenticate and version it.
/// `lock` orders its events; `state` is read by anyone and written only under `lock`.
/// `pins` counts the requests using it: a pinned session is never evicted, so two requests
/// never hold two copies of one session.
package final class ResidentSession: Sendable {
    struct State: Sendable {
        var tree: NavigationTree
        var version: Int
        /// The snapshot stored for `version` (packed): what the next journal entry is the difference from.
        var snapshot: [UInt8]
        var tokenHash: [UInt8]
        var expiresAt: Int64
        /// The expiry the database holds (reads move `expiresAt` in memory only).
        var storedExpiresAt: Int64
        /// `expiresAt` moved in memory (a read) and is not yet stored.
        var touched = false
        /// This copy left memory (its store row changed underneath, or the session ended):
        /// whoever gets its lock afterwards must load the session again.
        var retired = false
        /// The user the session's journal is listed under, as its last event stored it
        /// (`JournalListings`); nil when not known.
        var journalListing: JournalListings.Listed?
        /// The token a request last proved with a SHA-256 (`tokenHash`), as its keyed check: a
        /// later request whose token has that check is the same token, while `tokenHash` is still
        /// the one it was proved against (a rotation leaves it behind).
        var provenToken: (tokenHash: [UInt8], check: TokenCheck)?

        /// A session as it is stored now.
        init(tree: NavigationTree, version: Int, snapshot: [UInt8], tokenHash: [UInt8], expiresAt: Int64) {
            self.tree = tree
            self.version = version
            self.snapshot = snapshot
            self.tokenHash = tokenHash
            self.expiresAt = expiresAt
            self.storedExpiresAt = expiresAt
        }
    }

    let id: String
    let lock = AsyncFIFOLock()
    /// Raised by the cache (under its lock) when it hands the session out, lowered by `release`.
    let pins = Atomic<Int>(0)
    private let state: Mutex<State>

    init(id: String, state: State) {
        self.id = id
        self.state = Mutex(state)
    }

    var current: State { state.withLock { $0 } }

    /// The id of the user signed in to the session now (nil: signed out).
    package var userID: Int64? { current.tree.user?.id }

    func update(_ body: (inout State) -> Void) {
        state.withLock { body(&$0) }
    }

    /// The request that the cache handed this session to is done with it.
    func release() {
        pins.subtract(1, ordering: .releasing)
    }

    /// True while some request uses it or waits for its lock.
    var isInUse: Bool { pins.load(ordering: .acquiring) > 0 || lock.isBusy }
}
