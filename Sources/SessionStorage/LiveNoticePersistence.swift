import Store

/// What a backend shared by several nodes keeps so that each node's streams hear of the others'
/// commits: leases on the sessions a node streams, and notices sent with a commit.
package protocol LiveNoticePersistence: Sendable {
    /// The channel notices travel on.
    var channel: String { get }

    /// Sends `payload` once the write of `connection` commits, and only then. With `ifLeased`,
    /// only while some node's lease on that session lasts at `now`.
    func notice(_ payload: String, ifLeased session: String?, now: Int64, on connection: any SQLConnection) throws

    /// Takes, or extends, the leases of those of `sessionIDs` still stored, until `until` (a later
    /// end stays).
    func takeLeases(sessionIDs: [String], until: Int64, on connection: any SQLConnection) throws

    /// Takes, or extends, the lease of session `sessionID` for a stream that opens with the token
    /// of `tokenHash`; false, and nothing written, for another token or no such session.
    func takeLease(sessionID: String, tokenHash: [UInt8], until: Int64, on connection: any SQLConnection) throws -> Bool

    /// Deletes at most `limit` leases that ended before `before`; returns how many.
    func deleteEndedLeases(before: Int64, limit: Int, on connection: any SQLConnection) throws -> Int
}
