import Navigation
import Synchronization

/// A session held in memory: its tree and the facts that authenticate and version it.
/// `lock` orders its events; `state` is read by anyone and written only under `lock`.
final class ResidentSession: Sendable {
    struct State: Sendable {
        var tree: NavigationTree
        var version: Int
        var tokenHash: [UInt8]
        var expiresAt: Int64
        /// The expiry the database holds (reads move `expiresAt` in memory only).
        var storedExpiresAt: Int64
        var lastUsed: UInt64
        /// `expiresAt` moved in memory (a read) and is not yet stored.
        var touched = false

        /// A session as it is stored now.
        init(tree: NavigationTree, version: Int, tokenHash: [UInt8], expiresAt: Int64) {
            self.tree = tree
            self.version = version
            self.tokenHash = tokenHash
            self.expiresAt = expiresAt
            self.storedExpiresAt = expiresAt
            self.lastUsed = 0
        }
    }

    let id: String
    let lock = AsyncFIFOLock()
    private let state: Mutex<State>

    init(id: String, state: State) {
        self.id = id
        self.state = Mutex(state)
    }

    var current: State { state.withLock { $0 } }

    func update(_ body: (inout State) -> Void) {
        state.withLock { body(&$0) }
    }
}
