import CPostgres
import Foundation
import Store

/// One libpq connection. Not thread-safe by design: each connection has exactly one owner at a
/// time (a pooled connection's serial queue), which is what libpq requires. Statements are
/// prepared once per SQL text, their `?N` parameters rewritten to PostgreSQL's `$N`, and every
/// result is fetched in binary format.
public final class PostgresConnection: SQLConnection {
    private let handle: OpaquePointer
    private var prepared: [String: String] = [:]
    /// How many prepared statements a connection keeps at most.
    static let maxPreparedStatements = 256
    public var dialect: SQLDialect { .postgresql }

    /// Connects to `url` (`postgresql://user:password@host:port/database?…`, or a libpq
    /// `key=value` string); libpq's `PG*` environment variables fill in what it leaves out.
    public init(url: String, connectTimeoutSeconds: Int = 5) throws {
        // Keywords before `dbname` are defaults: the URL expanded from `dbname` overrides them.
        let keywords = ["connect_timeout", "application_name", "client_encoding", "dbname"]
        let values = [String(connectTimeoutSeconds), "coordinatord", "UTF8", url]
        let handle = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let handle else { throw PostgresError(sqlState: "", message: "out of memory connecting") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle)).trimmingTrailingSpace
            PQfinish(handle)
            throw PostgresError(sqlState: "", message: message)
        }
        self.handle = handle
    }

    deinit {
        PQfinish(handle)
    }

    /// True while the connection to the server is up, as far as libpq knows.
    public var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs `body` in a transaction: `COMMIT` if it returns, `ROLLBACK` if it throws. A statement
    /// that failed inside aborts the transaction even if `body` caught its error: then nothing
    /// commits and this throws. A connection that breaks at `BEGIN` throws `TransactionNotBegun`;
    /// one that breaks during `COMMIT` throws `CommitUnconfirmed`, since the server may have
    /// committed before its answer was lost.
    public func transaction<T: Sendable>(_ body: () throws -> T) throws -> T {
        let transaction: Int64
        do {
            transaction = try begin()
        } catch let error as PostgresError where error.isStorageFailure {
            throw TransactionNotBegun(cause: error)
        } catch {
            if isHealthy { try? execute("ROLLBACK") }  // `BEGIN` may have run without its id
            throw error
        }
        do {
            let result = try body()
            guard PQtransactionStatus(handle) != PQTRANS_INERROR else {
                throw PostgresError(
                    sqlState: "25P02", message: "a statement failed inside the transaction; nothing was committed")
            }
            do {
                try execute("COMMIT")
            } catch let error as PostgresError where !isHealthy {
                throw CommitUnconfirmed(transaction: transaction, result: result, cause: error)
            }
            return result
        } catch {
            if isHealthy { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// `BEGIN`, and the transaction's id (for `txid_status` should its `COMMIT` go unanswered), in
    /// one round trip.
    private func begin() throws -> Int64 {
        let sql = "BEGIN; SELECT txid_current()"
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
        guard PQntuples(result) == 1, let text = PQgetvalue(result, 0, 0), let id = Int64(String(cString: text)) else {
            throw PostgresError(sqlState: "", message: "BEGIN answered no transaction id", sql: sql)
        }
        return id
    }

    /// Reconnects a broken connection with the same parameters; prepared statements start afresh.
    public func reconnect() throws {
        prepared.removeAll()
        PQreset(handle)
        guard isHealthy else { throw connectionError(sql: nil) }
    }

    /// The server's host, port and database, for logs.
    public var location: String {
        "postgresql://\(String(cString: PQhost(handle))):\(String(cString: PQport(handle)))/\(String(cString: PQdb(handle)))"
    }

    public func execute(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    @discardableResult
    public func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
        let result = try perform(sql, values)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    public func query<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
        let result = try perform(sql, values)
        defer { PQclear(result) }
        let count = PQntuples(result)
        var rows: [T] = []
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            rows.append(try map(Row(PostgresRowReader(result: result, row: row))))
        }
        return rows
    }

    public func queryFirst<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> T? {
        let result = try perform(sql, values)
        defer { PQclear(result) }
        guard PQntuples(result) > 0 else { return nil }
        return try map(Row(PostgresRowReader(result: result, row: 0)))
    }

    /// Prepares `sql` on first use, runs it with `values` bound, and returns its checked result
    /// (the caller clears it).
    private func perform(_ sql: String, _ values: [SQLValue]) throws -> OpaquePointer {
        let name = try statementName(sql, values)
        let parameters = values.map(Parameter.init)
        let lengths = parameters.map(\.length)
        let formats = parameters.map(\.format)
        let result = withParameterPointers(parameters) { pointers in
            PQexecPrepared(handle, name, Int32(values.count), pointers, lengths, formats, 1)
        }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        return result!
    }

    private func statementName(_ sql: String, _ values: [SQLValue]) throws -> String {
        if let name = prepared[sql] { return name }
        // Bounded, for apps that put values into their SQL text: past the bound the connection's
        // statements start over (results are read whole, so none is in use). In a failed
        // transaction the server refuses; they start over at the next chance.
        if prepared.count >= Self.maxPreparedStatements, (try? execute("DEALLOCATE ALL")) != nil { prepared.removeAll() }
        let name = "s\(prepared.count)"
        let types = values.map(Parameter.type)
        let result = PQprepare(handle, name, PostgresSQL.numberedParameters(sql), Int32(values.count), types)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?, sql: String) throws {
        guard let result else { throw connectionError(sql: sql) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            // The primary message only: its DETAIL can quote bound values (`Key (email)=(…) already
            // exists`), and errors are logged.
            let message = (PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? String(cString: PQresultErrorMessage(result))).trimmingTrailingSpace
            throw PostgresError(sqlState: isHealthy ? state : "", message: message, sql: sql)
        }
    }

    private func connectionError(sql: String?) -> PostgresError {
        PostgresError(sqlState: "", message: String(cString: PQerrorMessage(handle)).trimmingTrailingSpace, sql: sql)
    }
}

/// A parameter as libpq takes it: integers, reals and text as text, blobs in binary form.
private struct Parameter {
    /// The bytes libpq reads: text NUL-terminated, a blob with a spare byte so that even an empty
    /// one has an address.
    let bytes: [UInt8]?
    /// How many of `bytes` a binary parameter has (libpq ignores it for text).
    let length: Int32
    let format: Int32

    init(_ value: SQLValue) {
        switch value {
        case .null: (bytes, length, format) = (nil, 0, 0)
        case .integer(let integer): (bytes, length, format) = (Array("\(integer)".utf8) + [0], 0, 0)
        case .real(let real): (bytes, length, format) = (Array("\(real)".utf8) + [0], 0, 0)
        case .text(let text): (bytes, length, format) = (Array(text.utf8) + [0], 0, 0)
        case .blob(let blob): (bytes, length, format) = (blob + [0], Int32(blob.count), 1)
        }
    }

    /// The type the statement is prepared with; 0 lets the server infer it from the SQL.
    static func type(_ value: SQLValue) -> Oid {
        switch value {
        case .integer: PostgresType.int8
        case .real: PostgresType.float8
        case .blob: PostgresType.bytea
        case .null, .text: 0
        }
    }
}

/// Calls `body` with C pointers to each parameter's bytes, valid for the call.
private func withParameterPointers<R>(
    _ parameters: [Parameter], _ body: ([UnsafePointer<CChar>?]) -> R
) -> R {
    var pointers: [UnsafePointer<CChar>?] = []
    pointers.reserveCapacity(parameters.count)
    func next(_ index: Int) -> R {
        guard index < parameters.count else { return body(pointers) }
        guard let bytes = parameters[index].bytes else {
            pointers.append(nil)
            return next(index + 1)
        }
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                pointers.append(characters.baseAddress)
                return next(index + 1)
            }
        }
    }
    return next(0)
}

/// Calls `body` with a NULL-terminated array of C strings, valid for the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

extension String {
    var trimmingTrailingSpace: String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
