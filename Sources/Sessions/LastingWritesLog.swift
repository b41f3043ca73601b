import Store
import Synchronization

/// The lasting writes (`LastingWrites`) of the last run of one event: each run's environment
/// gets a fresh set, which replaces the set of the run before (that run is being done again).
package final class LastingWritesLog: Sendable {
    private let latest = Mutex<LastingWrites?>(nil)

    package init() {}

    /// A fresh set for a run on `connection`; it is the latest from now on.
    func begin(on connection: any SQLConnection) -> LastingWrites {
        let writes = LastingWrites(connection: connection)
        latest.withLock { $0 = writes }
        return writes
    }

    /// What the latest run performed.
    var performed: [LastingWrites.Write] { latest.withLock { $0?.performed ?? [] } }

    /// The event is refused for good: its last run's lasting writes, rolled back with it, commit
    /// now through `write`, in a write of their own (the session service's: on SQLite through the
    /// writer, group-committed with other sessions' events; on PostgreSQL in a transaction of
    /// their own). If they cannot be committed, that failure is the event's answer (`503`)
    /// instead of its refusal, which could otherwise tell a client what was not counted.
    package func commit(
        through write: (@escaping @Sendable (any SQLConnection) throws -> Void) async throws -> Void
    ) async throws {
        let writes = performed
        guard !writes.isEmpty else { return }
        try await write { connection in
            for write in writes { try write(connection) }
        }
    }
}
