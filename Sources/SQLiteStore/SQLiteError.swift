import Store

/// A failed SQLite call: SQLite's result code, its message, and the SQL that failed.
public struct SQLiteError: DatabaseError, Equatable {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` rather than `SQLITE_CONSTRAINT`).
    public let code: Int32
    /// SQLite's message.
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?

    /// An error with SQLite's `code` and `message`, for `sql`.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code, the low byte of the extended one.
    public var primaryCode: Int32 { code & 0xFF }

    /// True for a violated UNIQUE or PRIMARY KEY constraint.
    public var isUniqueViolation: Bool { code == 2067 || code == 1555 }

    /// True when the database could not be reached or written (I/O, full disk, busy or locked past
    /// the busy timeout, read-only, out of memory): the caller's request was fine, storage was not.
    public var isStorageFailure: Bool {
        // BUSY LOCKED NOMEM READONLY IOERR CORRUPT FULL CANTOPEN NOTADB
        [5, 6, 7, 8, 10, 11, 13, 14, 26].contains(primaryCode)
    }

    public var description: String {
        let base = "SQLite error \(code): \(message)"
        return sql.map { "\(base) (SQL: \($0))" } ?? base
    }
}
