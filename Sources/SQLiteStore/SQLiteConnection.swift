import CSQLite
import Store

/// One SQLite connection. Not thread-safe by design: each connection has exactly one owner
/// (the writer thread, or one reader queue) that serializes every call on it, which is what
/// SQLite's multi-thread mode requires. Prepared statements are cached per SQL text.
public final class SQLiteConnection: SQLConnection {
    let handle: OpaquePointer
    /// The database file.
    public let path: String
    public var dialect: SQLDialect { .sqlite }
    private var statements = StatementCache(capacity: SQLiteConnection.maxCachedStatements)

    /// Opens (creating if needed) the database at `path` with WAL, `synchronous=FULL`,
    /// foreign keys on and a busy timeout.
    public init(path: String, readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 5_000) throws {
        _ = Self.statementJournalsInMemory
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code, message: "\(message): \(path)")
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        _ = coordinatord_sqlite_enable_defensive(handle)
        if !readOnly {
            try execute("PRAGMA journal_mode=WAL")
        }
        try execute("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON")
    }

    /// Set once, before the process's first connection opens: the writer's group commit gives
    /// each write a savepoint, and a batch's statement journal (a copy of every page a savepoint
    /// changes that the batch had changed before) passed SQLite's 64 KiB default under load. Each
    /// spill created, wrote and deleted a file in the temporary directory on the writer's thread,
    /// a fifth of its writes (strace). The journal is bounded by the batch's pages.
    static let statementJournalsInMemory = coordinatord_sqlite_keep_statement_journals_in_memory() == SQLITE_OK

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters and return no rows of interest.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// The cached prepared statement for `sql`, prepared on first use.
    public func statement(_ sql: String) throws -> Statement {
        try statements.statement(sql) { try Statement(connection: self, sql: $0) }
    }

    /// How many prepared statements a connection keeps at most.
    static let maxCachedStatements = 256

    /// Prepared statements cached now.
    var cachedStatements: Int { statements.count }

    /// Runs a statement with bound parameters and returns how many rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLValue]) throws -> Int { try run(statement(sql), values) }

    /// Runs a query and maps each row.
    public func query<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
        try query(statement(sql), values, map)
    }

    /// The first row of a query, mapped, or nil when there is none.
    public func queryFirst<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> T? {
        try queryFirst(statement(sql), values, map)
    }

    // The same, for a statement already looked up (`ReadOnlyConnection` checks it first).

    @discardableResult
    func run(_ statement: Statement, _ values: [SQLValue]) throws -> Int {
        try statement.bind(values)
        defer { statement.reset() }
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    func query<T>(_ statement: Statement, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
        try statement.bind(values)
        defer { statement.reset() }
        var results: [T] = []
        while try statement.step() {
            results.append(try map(statement.row))
        }
        return results
    }

    func queryFirst<T>(_ statement: Statement, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> T? {
        try statement.bind(values)
        defer { statement.reset() }
        return try statement.step() ? map(statement.row) : nil
    }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: committed if it returns, rolled back if it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}
