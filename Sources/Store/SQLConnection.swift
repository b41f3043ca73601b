/// The connection an app's models run their SQL on. Inside an event it is the connection that
/// event commits on, so whatever the models change commits together with the session, or not at all.
///
/// Parameters are written `?1`, `?2`, … on every backend and bound by position. The SQL both
/// backends accept covers what models usually need (`INSERT … RETURNING id` instead of a last
/// row id, `INSERT … ON CONFLICT … DO NOTHING` for a uniqueness race); `dialect` tells the rest.
///
/// On PostgreSQL a failed statement aborts the event's whole transaction: catch an expected
/// conflict with `ON CONFLICT`, not by catching the error and going on.
public protocol SQLConnection: AnyObject {
    /// The SQL this connection speaks.
    var dialect: SQLDialect { get }

    /// Runs one or more statements that take no parameters and return no rows of interest.
    func execute(_ sql: String) throws

    /// Runs a statement with bound parameters and returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws -> Int

    /// Runs a query and maps each row.
    func query<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> [T]

    /// The first row of a query, mapped, or nil when there is none.
    func queryFirst<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> T?

    /// Runs `sql` as the last statement of the write it is in, and ends that write with it. `sql`
    /// is a query whose first column is `1 / n`, n the rows it changed. True when n > 0: the write
    /// commits (PostgreSQL sends `COMMIT` in the same round trip once its transaction has begun).
    /// False when n = 0 (a division by zero: PostgreSQL refuses it and aborts the transaction, SQLite
    /// answers NULL): the caller then throws, and nothing of the write commits. Nothing else may run
    /// in the write after it.
    ///
    /// With `check`, PostgreSQL sends a write whose first statement this is as one round trip
    /// (`BEGIN`, `sql`, `COMMIT`); should the answer be lost, `check` tells whether it committed.
    /// Without it, such a write costs a second round trip: its transaction's id must be known
    /// before `COMMIT` is sent, so that its fate can be asked.
    func commitIfChanged(_ sql: String, _ values: [SQLValue], checkedBy check: CommitCheck?) throws -> Bool

    /// Runs `sql` (a statement of its own, whose rows are not read) once the write this connection
    /// is in has committed, and only if it does: PostgreSQL sends it with `COMMIT`, in the same
    /// round trip, as its own transaction. For effects that must follow the commit without holding
    /// it up: a `pg_notify` inside the transaction makes every notifying commit of the database wait
    /// for the one before it (a lock held through the WAL flush). Outside a write it runs at once.
    func runAfterCommit(_ sql: String, _ values: [SQLValue]) throws
}

extension SQLConnection {
    /// Runs the statement now, in the write: it commits with the write, or not at all.
    public func runAfterCommit(_ sql: String, _ values: [SQLValue]) throws {
        _ = try query(sql, values) { _ in () }
    }

    /// The statement alone; the write commits (or rolls back) after it, as usual.
    public func commitIfChanged(_ sql: String, _ values: [SQLValue], checkedBy check: CommitCheck?) throws -> Bool {
        try queryFirst(sql, values) { !$0.isNull(0) } ?? false
    }

    /// `commitIfChanged(_:_:checkedBy:)` without a check.
    public func commitIfChanged(_ sql: String, _ values: [SQLValue]) throws -> Bool {
        try commitIfChanged(sql, values, checkedBy: nil)
    }

    /// Runs a statement without parameters and returns how many rows it changed.
    @discardableResult
    public func run(_ sql: String) throws -> Int { try run(sql, []) }

    /// Runs a query without parameters and maps each row.
    public func query<T>(_ sql: String, _ map: (Row) throws -> T) throws -> [T] { try query(sql, [], map) }

    /// The first row of a query without parameters, mapped, or nil when there is none.
    public func queryFirst<T>(_ sql: String, _ map: (Row) throws -> T) throws -> T? { try queryFirst(sql, [], map) }
}
