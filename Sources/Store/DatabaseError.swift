/// A failed database call, as each backend reports it (`SQLiteError`, `PostgresError`).
public protocol DatabaseError: Error, CustomStringConvertible, Sendable {
    /// The database's message.
    var message: String { get }
    /// True for a violated UNIQUE or PRIMARY KEY constraint.
    var isUniqueViolation: Bool { get }
    /// True when storage could not be reached or written (I/O, full disk, a lost connection,
    /// a server shutting down, busy or locked past retries): the caller's request was fine,
    /// storage was not. Otherwise the database refused the statement itself (a constraint, a
    /// syntax error): a bug, which retrying repeats.
    var isStorageFailure: Bool { get }
    /// The statement that failed, as written (placeholders, never the values bound to them).
    var sql: String? { get }
}

extension DatabaseError {
    public var sql: String? { nil }
}
