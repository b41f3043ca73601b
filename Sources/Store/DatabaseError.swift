/// A failed database call, as each backend reports it (`SQLiteError`, `PostgresError`).
public protocol DatabaseError: Error, CustomStringConvertible, Sendable {
    /// The database's message.
    var message: String { get }
    /// True for a violated UNIQUE or PRIMARY KEY constraint.
    var isUniqueViolation: Bool { get }
    /// True when storage could not be reached or written (I/O, full disk, a lost connection,
    /// a server shutting down): the caller's request was fine, storage was not.
    var isStorageFailure: Bool { get }
}
