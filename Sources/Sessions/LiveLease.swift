/// A node's lease on a session it streams live, on a shared store (`LiveNoticePersistence`).
///
/// A commit tells the other nodes about a new version (`LiveNotice.send`) only while some node
/// holds a lease on the session: a notice costs PostgreSQL a database-wide lock through the
/// commit's WAL flush and every listening node a wake-up, and most sessions have no stream open
/// anywhere. A node takes the lease before its first stream of a session reads the session, and
/// the notice is checked after the commit, so either the check sees the lease or that read sees
/// the commit: no version is missed. Leases are renewed with every heartbeat and sweep while the
/// session's streams stay open, and deleted by the sweep once long ended.
///
/// A lease runs on the clock of the node that took it and is checked on the clock of the node that
/// commits: their clocks may differ by up to `renewWithin` less a heartbeat.
enum LiveLease {
    /// How long a lease lasts, in seconds.
    static let seconds: Int64 = 600
    /// A lease is renewed once less than this is left.
    static let renewWithin: Int64 = 300
    /// Sessions per renewing statement.
    static let batchSize = 500
}
