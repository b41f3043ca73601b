import CSQLite
import Store

/// A prepared statement. Owned by its connection's single owner; finalized in `deinit`.
public final class Statement {
    let handle: OpaquePointer
    /// The statement's SQL.
    public let sql: String
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw connection.error(code, sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `values` to its parameters `?1`, `?2`, ...
    public func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        // No `sqlite3_clear_bindings`: every parameter is bound again below (the count must match),
        // and clearing first cost about 300 instructions per statement. The values bound last stay
        // with the cached statement until its next use, at most one row's worth per statement.
        guard Int(sqlite3_bind_parameter_count(handle)) == values.count else {
            throw SQLiteError(
                code: SQLITE_RANGE,
                message: "expected \(sqlite3_bind_parameter_count(handle)) parameters, got \(values.count)", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real): code = sqlite3_bind_double(handle, index, real)
            case .text(let text):
                // Bound by its byte length: text may hold NUL bytes, which a C string would cut short.
                code = text.withCString {
                    sqlite3_bind_text(handle, index, $0, Int32(text.utf8.count), coordinatord_sqlite_transient())
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), coordinatord_sqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
        }
    }

    /// Advances to the next row; false when the statement is done.
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw connection.error(code, sql: sql)
        }
    }

    /// True when running the statement cannot change the database (a `SELECT`, say).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Resets the statement so that it releases its read snapshot.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// The current row's columns.
    public var row: Row { Row(SQLiteRowReader(handle: handle)) }
}

/// Reads the current row of a stepped statement.
struct SQLiteRowReader: RowReader {
    let handle: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
