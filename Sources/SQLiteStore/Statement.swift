import CSQLite
import Store

/// A prepared statement. Owned by its connection's single owner; finalized in `deinit`.
public final class Statement {
    let handle: OpaquePointer
    /// The statement's SQL.
    public let sql: String
    private unowned let connection: SQLiteConnection
    /// The bytes of the texts and blobs bound last. SQLite reads them where they are (bound
    /// `SQLITE_STATIC`) instead of copying each into an allocation of its own, so they stay put
    /// until the next `bind`, which binds every parameter again before anything reads them.
    private var boundBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 8)

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
        boundBytes.deallocate()
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
        reserveBoundBytes(for: values)
        var used = 0
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real): code = sqlite3_bind_double(handle, index, real)
            case .text(var text):
                // Bound by its byte length: text may hold NUL bytes, which a C string would cut short.
                code = text.withUTF8 { bytes in
                    let kept = keep(UnsafeRawBufferPointer(bytes), at: &used)
                    return sqlite3_bind_text(handle, index, kept.baseAddress, Int32(kept.count), nil)
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { bytes in
                    let kept = keep(bytes, at: &used)
                    return sqlite3_bind_blob(handle, index, kept.baseAddress, Int32(kept.count), nil)
                }
            }
            guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
        }
    }

    /// Makes `boundBytes` hold every text and blob of `values`. Their old bindings may point into
    /// the buffer given up here: each is bound again before the statement runs.
    private func reserveBoundBytes(for values: [SQLValue]) {
        var needed = 0
        for value in values {
            switch value {
            case .text(let text): needed += text.utf8.count
            case .blob(let bytes): needed += bytes.count
            case .null, .integer, .real: break
            }
        }
        // Grows by doubling; gives back a large buffer once values a quarter of its size do (a
        // big blob bound once is not kept for the statement's life).
        let capacity: Int
        if needed > boundBytes.count {
            capacity = max(needed, 2 * boundBytes.count)
        } else if boundBytes.count > 65_536 && needed <= boundBytes.count / 4 {
            capacity = max(needed, 64)
        } else {
            return
        }
        boundBytes.deallocate()
        boundBytes = .allocate(byteCount: capacity, alignment: 8)
    }

    /// Copies `bytes` into `boundBytes` at `used` (and moves `used` past them); never a null
    /// address, which SQLite would bind as NULL, even for no bytes.
    private func keep(_ bytes: UnsafeRawBufferPointer, at used: inout Int) -> (baseAddress: UnsafePointer<CChar>, count: Int) {
        let start = boundBytes.baseAddress! + used
        if let source = bytes.baseAddress, !bytes.isEmpty { start.copyMemory(from: source, byteCount: bytes.count) }
        used += bytes.count
        return (UnsafePointer(start.assumingMemoryBound(to: CChar.self)), bytes.count)
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
