import CPostgres
import CoordinatorJSON
import Foundation
import Store
import Synchronization

/// One libpq connection. Not thread-safe by design: each connection has exactly one owner at a
/// time (a pooled connection's serial queue), which is what libpq requires. Statements are
/// prepared once per SQL text, their `?N` parameters rewritten to PostgreSQL's `$N`, and every
/// result is fetched in binary format.
package final class PostgresConnection: SQLConnection {
    private let handle: OpaquePointer
    private var prepared = PreparedNames()
    /// Statements prepared on this connection so far: the next one's name. Never reused, so that a
    /// name from before the statements started over names nothing rather than another statement.
    private var preparedSoFar = 0
    /// The server process at the other end, kept while connected: libpq forgets it once the
    /// connection breaks, when it is needed (`CommitUnconfirmed`). 0 when not known: behind a
    /// pooler (PgBouncer, say) the process libpq names is not the one that runs the statements.
    private var serverProcess: Int32 = 0
    /// Inside `transaction` until its first statement: `BEGIN` is still to be sent (with that statement).
    private var beginPending = false
    /// The id of the transaction open now, once `BEGIN` was sent.
    private var openTransaction: Int64?
    /// Why the pipeline that carried `BEGIN` failed, kept so that `transaction` fails even if its
    /// body caught the error.
    private var beginFailure: (any Error)?
    /// Set by `commitIfChanged` once its `COMMIT` went with its statement: committed, or (when the
    /// connection broke before the answer) perhaps committed, for the error that hid it.
    private var committedWith: CommittedWith?
    /// Statements to send right after `COMMIT` (`runAfterCommit`), with their values. Named when
    /// sent: a statement of the same write may fill the cache of prepared statements, which drops
    /// them all, and a name taken earlier would then be another statement's.
    private var afterCommit: [(sql: String, values: [SQLValue])] = []
    private enum CommittedWith {
        case committed
        case unconfirmed(CommitUnconfirmed.Lookup, serverProcess: Int32, cause: PostgresError)
    }
    /// How many prepared statements a connection keeps at most.
    package static let maxPreparedStatements = 256
    package var dialect: SQLDialect { .postgresql }

    /// Connects to `url` (`postgresql://user:password@host:port/database?…`, or a libpq
    /// `key=value` string); libpq's `PG*` environment variables fill in what it leaves out.
    package init(url: String, connectTimeoutSeconds: Int = 5) throws {
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
        serverProcess = try knownServerProcess()
    }

    deinit {
        PQfinish(handle)
    }

    /// Connects to `url`, and while the server cannot be reached yet (nothing listens, the
    /// connection times out, or it is still starting up) tries again for up to `waitSeconds`,
    /// calling `waiting` with each failure first. Any other failure (a refused login, an unknown
    /// database) throws at once, and so does the last one past the deadline.
    package static func connect(
        url: String, waitSeconds: Double, waiting: (PostgresError) -> Void = { _ in }
    ) throws -> PostgresConnection {
        let deadline = ContinuousClock.now + .milliseconds(Int(waitSeconds * 1000))
        while true {
            do {
                return try PostgresConnection(url: url)
            } catch let error as PostgresError where error.meansNotReachableYet && ContinuousClock.now < deadline {
                waiting(error)
                usleep(500_000)  // start-up only: nothing else waits for this thread
            }
        }
    }

    /// The server process libpq names (`PQbackendPID`) if it is the one that runs this
    /// connection's statements, else 0. One round trip, once per connection.
    private func knownServerProcess() throws -> Int32 {
        let named = PQbackendPID(handle)
        let running = try queryFirst("SELECT pg_backend_pid()", []) { $0.int64(0) }
        return running == Int64(named) ? named : 0
    }

    /// True while the connection to the server is up, as far as libpq knows.
    package var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs `body` in a transaction: `COMMIT` if it returns, `ROLLBACK` if it throws. A statement
    /// that failed inside aborts the transaction even if `body` caught its error: then nothing
    /// commits and this throws. `BEGIN` is not sent on its own: it goes with the transaction's first
    /// statement, in one round trip (and a body that sends nothing costs nothing). A connection that
    /// breaks before `COMMIT` was sent throws `TransactionNotBegun` (nothing committed); one that
    /// breaks during `COMMIT` throws `CommitUnconfirmed`, since the server may have committed
    /// before its answer was lost.
    package func transaction<T: Sendable>(_ body: () throws -> T) throws -> T {
        (beginPending, openTransaction, beginFailure, committedWith, afterCommit) = (true, nil, nil, nil, [])
        defer { (beginPending, openTransaction, beginFailure, committedWith, afterCommit) = (false, nil, nil, nil, []) }
        do {
            let result = try body()
            if let beginFailure { throw beginFailure }
            switch committedWith {
            case .committed?: return result
            case .unconfirmed(let lookup, let serverProcess, let cause)?:
                throw CommitUnconfirmed(lookup: lookup, serverProcess: serverProcess, result: result, cause: cause)
            case nil: break
            }
            guard let transaction = openTransaction else {
                // Nothing was sent: there is no commit to follow, so what was to follow it runs now.
                try runQueuedAfterCommit()
                return result
            }
            guard PQtransactionStatus(handle) != PQTRANS_INERROR else {
                throw PostgresError(
                    sqlState: "25P02", message: "a statement failed inside the transaction; nothing was committed")
            }
            do {
                if afterCommit.isEmpty {
                    try execute("COMMIT")
                } else {
                    try commitWithFollowers()
                }
            } catch let error as PostgresError where !isHealthy {
                throw CommitUnconfirmed(
                    lookup: .transaction(transaction), serverProcess: serverProcess, result: result, cause: error)
            }
            return result
        } catch {
            if openTransaction != nil, committedWith == nil, isHealthy { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// The statement and `COMMIT` in one round trip (a pipeline): once the transaction has begun
    /// with an earlier statement and its id is known, which tells whether it committed should the
    /// connection break before the answer; or, when the statement is the transaction's first and
    /// `check` says how to tell instead, with its `BEGIN` too. Otherwise (the statement would begin
    /// the transaction, and an id lost with the answer would leave its fate unknown) the statement,
    /// then `COMMIT` as usual. A division by zero (nothing changed) aborts the transaction: the
    /// `COMMIT` after it does nothing, and `transaction` rolls back.
    package func commitIfChanged(_ sql: String, _ values: [SQLValue], checkedBy check: CommitCheck?) throws -> Bool {
        // Its fate is told by its server process ending, then `check`: only when that process is known.
        if beginPending, let check, serverProcess != 0 { return try beginAndCommit(sql, values, checkedBy: check) }
        guard let transaction = openTransaction, transaction != 0, !beginPending, committedWith == nil,
            PQtransactionStatus(handle) == PQTRANS_INTRANS
        else {
            do {
                return try queryFirst(sql, values) { !$0.isNull(0) } ?? false
            } catch let error as PostgresError where error.sqlState == Self.divisionByZero {
                return false
            }
        }
        let names = try statementNames([(sql, values)] + afterCommit)
        // What follows the commit goes in the same pipeline: skipped, like `COMMIT`, if the statement fails.
        let results = pipeline(queries: 2 + afterCommit.count) {
            sendPrepared(names[0], Parameters(values))
                && PQsendQueryParams(handle, "COMMIT", 0, nil, nil, nil, nil, 0) == 1
                && sendAfterCommit(names: names.dropFirst())
        }
        defer { for case let result? in results { PQclear(result) } }
        return try committed(results, statement: 0, sql: sql, lookup: .transaction(transaction))
    }

    /// Sends `writes` (counting statements) as one transaction, in one round trip: `BEGIN`, each
    /// statement, `COMMIT`, then `following` (run whatever became of each write: they check for
    /// themselves). Each write's outcome, in order: committed (and whether it changed its rows),
    /// unconfirmed (the connection broke before `COMMIT`'s answer), or `.alone` for all when the
    /// transaction failed and kept nothing. Outside any transaction. Behind a pooler (no known
    /// server process to end and wait for, so no way to settle a lost answer by a write's check)
    /// every write is `.alone`: each is sent as before.
    func commitGroup(_ writes: [(sql: String, values: [SQLValue])], following: [(sql: String, values: [SQLValue])])
        -> [GroupCommit.Outcome]
    {
        let everyAlone = [GroupCommit.Outcome](repeating: .alone, count: writes.count)
        let statements = writes + following
        guard serverProcess != 0, let names = try? statementNames(statements) else { return everyAlone }
        let send = { (name: String, statement: (String, [SQLValue])) in
            self.sendPrepared(name, Parameters(statement.1))
        }
        let results = pipeline(queries: statements.count + 2) {
            PQsendQueryParams(handle, "BEGIN", 0, nil, nil, nil, nil, 0) == 1
                && zip(names, statements).prefix(writes.count).allSatisfy(send)
                && PQsendQueryParams(handle, "COMMIT", 0, nil, nil, nil, nil, 0) == 1
                && zip(names, statements).dropFirst(writes.count).allSatisfy(send)
        }
        defer { for case let result? in results { PQclear(result) } }
        if let commit = results[writes.count + 1], PQresultStatus(commit) == PGRES_COMMAND_OK {
            // (What followed the commit is not the writes': a lost notice is caught up by the listeners.)
            return results[1...writes.count].map { result in
                guard let result, PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) == 1 else {
                    return .committed(changed: false)
                }
                return .committed(changed: PostgresRowReader(result: result, row: 0).int64(0) > 0)
            }
        }
        guard isHealthy else {
            let cause = connectionError(sql: "COMMIT")
            return writes.map { _ in .unconfirmed(serverProcess: serverProcess, cause: cause) }
        }
        // A statement failed (or `COMMIT` did): the transaction kept nothing.
        if PQtransactionStatus(handle) != PQTRANS_IDLE { PQclear(PQexec(handle, "ROLLBACK")) }
        return everyAlone
    }

    /// `BEGIN`, the statement, `COMMIT` and what follows the commit in one round trip. The
    /// transaction's id is not asked for: should the answer be lost, `check` tells, once this
    /// connection's server process has ended.
    private func beginAndCommit(_ sql: String, _ values: [SQLValue], checkedBy check: CommitCheck) throws -> Bool {
        let names = try statementNames([(sql, values)] + afterCommit)
        beginPending = false
        openTransaction = 0  // begun, its id unknown: rolled back unless it committed
        let results = pipeline(queries: 3 + afterCommit.count) {
            PQsendQueryParams(handle, "BEGIN", 0, nil, nil, nil, nil, 0) == 1
                && sendPrepared(names[0], Parameters(values))
                && PQsendQueryParams(handle, "COMMIT", 0, nil, nil, nil, nil, 0) == 1
                && sendAfterCommit(names: names.dropFirst())
        }
        defer { for case let result? in results { PQclear(result) } }
        if isHealthy { try self.check(results[0], sql: "BEGIN") }
        return try committed(results, statement: 1, sql: sql, lookup: .check(check))
    }

    /// What a pipeline that sent the statement at `statement`, then `COMMIT`, came to: true if it
    /// committed (or, the connection broken before the answer, perhaps did: `lookup` then tells
    /// which), false if the statement changed nothing; throws if either failed.
    private func committed(
        _ results: [OpaquePointer?], statement: Int, sql: String, lookup: CommitUnconfirmed.Lookup
    ) throws -> Bool {
        if let commit = results[statement + 1], PQresultStatus(commit) == PGRES_COMMAND_OK {
            committedWith = .committed
            return true
        }
        guard isHealthy else {
            // Whether `COMMIT` ran is not known from here: `transaction` throws `CommitUnconfirmed`
            // once the work returns, and the store asks. (Committed means the statement changed its
            // rows: had it not, its division by zero would have aborted the transaction.)
            committedWith = .unconfirmed(lookup, serverProcess: serverProcess, cause: connectionError(sql: "COMMIT"))
            return true
        }
        do {
            try check(results[statement], sql: sql)
        } catch let error as PostgresError where error.sqlState == Self.divisionByZero {
            return false
        }
        // The statement ran and `COMMIT` failed (a deferred constraint, say): the transaction is over.
        openTransaction = nil
        try check(results[statement + 1], sql: "COMMIT")
        throw PostgresError(sqlState: "", message: "COMMIT answered nothing", sql: "COMMIT")
    }

    /// True when the server spoke on this connection while nothing was asked of it: it closed
    /// it, or is about to (its last message says why: terminated, shutting down, idle too long).
    /// Such a connection is not used again. A poll that does not wait.
    package var closedByServer: Bool {
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) != 0
    }

    /// Inside a transaction, queues `sql` to go with `COMMIT` (prepared now, so that it fails
    /// here if it is wrong); outside one, runs it.
    package func runAfterCommit(_ sql: String, _ values: [SQLValue]) throws {
        guard beginPending || openTransaction != nil else {
            PQclear(try perform(sql, values))
            return
        }
        _ = try statementName(sql, values)
        afterCommit.append((sql, values))
    }

    /// Sends the queued after-commit statements, prepared as `names` (in a pipeline, after its `COMMIT`).
    private func sendAfterCommit<Names: Collection<String>>(names: Names) -> Bool {
        zip(names, afterCommit).allSatisfy { name, statement in sendPrepared(name, Parameters(statement.values)) }
    }

    /// `COMMIT` and the queued after-commit statements in one round trip. Their failures are not
    /// the write's: it committed (a lost notice is caught up by the listeners' catch-up reads).
    private func commitWithFollowers() throws {
        let names = try statementNames(afterCommit)
        let results = pipeline(queries: 1 + afterCommit.count) {
            PQsendQueryParams(handle, "COMMIT", 0, nil, nil, nil, nil, 0) == 1 && sendAfterCommit(names: names)
        }
        defer { for case let result? in results { PQclear(result) } }
        try check(results[0], sql: "COMMIT")
    }

    /// Runs the queued after-commit statements now (a transaction that sent nothing), one by one.
    private func runQueuedAfterCommit() throws {
        let queued = afterCommit
        afterCommit = []
        for statement in queued {
            let result = execPrepared(
                try statementName(statement.sql, statement.values), Parameters(statement.values))
            defer { PQclear(result) }
            try check(result, sql: "a statement after COMMIT")
        }
    }

    /// The transaction's id, for `txid_status` should its `COMMIT` go unanswered.
    private static let transactionIDSQL = "SELECT txid_current()"

    /// SQLSTATE division_by_zero: how a `commitIfChanged` statement says it changed nothing.
    private static let divisionByZero = "22012"

    /// Sends the pending `BEGIN` on its own (for `execute`, whose SQL may hold several statements).
    private func beginNow() throws {
        beginPending = false
        do {
            openTransaction = try begin()
        } catch let error as PostgresError where error.isStorageFailure {
            beginFailure = TransactionNotBegun(cause: error, serverProcess: serverProcess)
            throw beginFailure!
        } catch {
            openTransaction = 0  // `BEGIN` may have run without its id: roll it back
            throw error
        }
    }

    /// `BEGIN`, and the transaction's id (for `txid_status` should its `COMMIT` go unanswered), in
    /// one round trip.
    private func begin() throws -> Int64 {
        let sql = "BEGIN; SELECT txid_current()"
        let result = PQexec(handle, sql)
        Self.countRoundTrip()
        defer { PQclear(result) }
        try check(result, sql: sql)
        guard PQntuples(result) == 1, let text = PQgetvalue(result, 0, 0), let id = Int64(String(cString: text)) else {
            throw PostgresError(sqlState: "", message: "BEGIN answered no transaction id", sql: sql)
        }
        return id
    }

    /// Reconnects a broken connection with the same parameters; prepared statements start afresh.
    package func reconnect() throws {
        prepared.removeAll()
        PQreset(handle)
        guard isHealthy else { throw connectionError(sql: nil) }
        serverProcess = try knownServerProcess()
    }

    /// The server's host, port and database, for logs.
    package var location: String {
        "postgresql://\(String(cString: PQhost(handle))):\(String(cString: PQport(handle)))/\(String(cString: PQdb(handle)))"
    }

    package func execute(_ sql: String) throws {
        if beginPending { try beginNow() }
        let result = PQexec(handle, sql)
        Self.countRoundTrip()
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    @discardableResult
    package func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
        let result = try perform(sql, values)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    package func query<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
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

    package func queryFirst<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> T? {
        let result = try perform(sql, values)
        defer { PQclear(result) }
        guard PQntuples(result) > 0 else { return nil }
        return try map(Row(PostgresRowReader(result: result, row: 0)))
    }

    /// Prepares `sql` on first use, runs it with `values` bound, and returns its checked result
    /// (the caller clears it). The transaction's first statement carries its `BEGIN`.
    private func perform(_ sql: String, _ values: [SQLValue]) throws -> OpaquePointer {
        let parameters = Parameters(values)
        if beginPending {
            // `txid_current()` prepared too: sent unnamed, PostgreSQL planned it for every write.
            let names = try statementNames([(Self.transactionIDSQL, []), (sql, values)])
            return try performBeginning(names[1], sql, parameters, transactionID: names[0])
        }
        let name = try statementName(sql, values)
        let result = execPrepared(name, parameters)
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        return result!
    }

    /// `BEGIN`, the transaction's id and its first statement in one round trip (libpq's pipeline
    /// mode: three queries, one sync). Nothing commits without a later `COMMIT`, so a connection that
    /// breaks here leaves nothing behind: `TransactionNotBegun`, which the store may run again.
    private func performBeginning(
        _ name: String, _ sql: String, _ parameters: Parameters, transactionID: String
    ) throws -> OpaquePointer {
        beginPending = false
        let results = pipeline(queries: 3) {
            PQsendQueryParams(handle, "BEGIN", 0, nil, nil, nil, nil, 0) == 1
                && sendPrepared(transactionID, Parameters([]))
                && sendPrepared(name, parameters)
        }
        defer { for case let result? in results.dropLast() { PQclear(result) } }
        do {
            try check(results[0], sql: "BEGIN")
            try check(results[1], sql: Self.transactionIDSQL)
            guard let ids = results[1], PQntuples(ids) == 1, PQgetisnull(ids, 0, 0) == 0 else {
                throw PostgresError(sqlState: "", message: "BEGIN answered no transaction id", sql: sql)
            }
            openTransaction = PostgresRowReader(result: ids, row: 0).int64(0)
            try check(results[2], sql: sql)
            return results[2]!
        } catch let error as PostgresError where !isHealthy {
            if let result = results[2] { PQclear(result) }
            // No `COMMIT` was sent: nothing of this transaction can have committed.
            openTransaction = nil
            beginFailure = TransactionNotBegun(cause: error, serverProcess: serverProcess)
            throw beginFailure!
        } catch {
            if let result = results[2] { PQclear(result) }
            if openTransaction == nil { openTransaction = 0 }  // `BEGIN` may have run without its id
            throw error
        }
    }

    /// Sends prepared statement `name` with `parameters` (in pipeline mode: its result comes with
    /// the pipeline's); false if libpq refused it.
    private func sendPrepared(_ name: String, _ parameters: Parameters) -> Bool {
        // The name lent with `withCString`: passed as a `String` inside the closure, it was copied
        // into an array of its own for every statement.
        name.withCString { name in
            parameters.withPointers { values, lengths, formats in
                PQsendQueryPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
            }
        } == 1
    }

    /// Runs prepared statement `name` with `parameters`, one round trip; its result, unchecked
    /// (the caller clears it).
    private func execPrepared(_ name: String, _ parameters: Parameters) -> OpaquePointer? {
        let result = parameters.withPointers { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
        }
        Self.countRoundTrip()
        return result
    }

    /// Sends `queries` queries with `send` in pipeline mode, then a sync, and reads one result per
    /// query (nil where none came: the connection broke). Leaves pipeline mode before it returns.
    private func pipeline(queries: Int, _ send: () -> Bool) -> [OpaquePointer?] {
        var results = [OpaquePointer?](repeating: nil, count: queries)
        guard PQenterPipelineMode(handle) == 1 else { return results }
        defer { PQexitPipelineMode(handle) }
        guard send(), PQpipelineSync(handle) == 1 else { return results }
        Self.countRoundTrip()
        var index = 0
        while true {
            guard let result = PQgetResult(handle) else {
                // The end of one query's results (or of everything, on a broken connection).
                index += 1
                if index > queries || !isHealthy { break }
                continue
            }
            if PQresultStatus(result) == PGRES_PIPELINE_SYNC {
                PQclear(result)
                break
            }
            if index < queries, results[index] == nil { results[index] = result } else { PQclear(result) }
        }
        return results
    }

    /// The prepared name of each statement, all valid together for one pipeline: room is made
    /// for those not prepared yet first, so that preparing one cannot drop another. Each statement
    /// is looked up once (it used to be twice, hashing its text each time), and one that repeats
    /// the one before it (a group commit's writes of one shape, whose text is one cached string)
    /// takes its name without a lookup.
    private func statementNames(_ statements: [(sql: String, values: [SQLValue])]) throws -> [String] {
        var names: [String?] = []
        names.reserveCapacity(statements.count)
        var missing: Set<String> = []
        for (index, statement) in statements.enumerated() {
            if index > 0, statement.sql == statements[index - 1].sql {
                names.append(names[index - 1])
                continue
            }
            let name = prepared.name(of: statement.sql)
            if name == nil { missing.insert(statement.sql) }
            names.append(name)
        }
        guard !missing.isEmpty else { return names.compactMap { $0 } }
        if prepared.count + missing.count > Self.maxPreparedStatements {
            startPreparedOver()
            names = names.map { _ in nil }
        }
        for (index, statement) in statements.enumerated() where names[index] == nil {
            names[index] =
                index > 0 && statement.sql == statements[index - 1].sql
                ? names[index - 1] : try statementName(statement.sql, statement.values)
        }
        return names.compactMap { $0 }
    }

    private func statementName(_ sql: String, _ values: [SQLValue]) throws -> String {
        if let name = prepared.name(of: sql) { return name }
        if prepared.count >= Self.maxPreparedStatements { startPreparedOver() }
        let name = "s\(preparedSoFar)"
        let types = values.map(Parameters.type)
        let result = PQprepare(handle, name, PostgresSQL.numberedParameters(sql), Int32(values.count), types)
        Self.preparations.add(1, ordering: .relaxed)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared.add(name, for: sql)
        preparedSoFar += 1
        return name
    }

    /// Drops the connection's prepared statements. Bounded, for apps that put values into their
    /// SQL text: past the bound the connection's statements start over (results are read whole,
    /// so none is in use; names handed out before are void). In a failed
    /// transaction the server refuses; they start over at the next chance.
    private func startPreparedOver() {
        if (try? execute("DEALLOCATE ALL")) != nil { prepared.removeAll() }
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

    /// Round trips to the server so far, by every `PostgresConnection` of this process (statements,
    /// pipelines, `BEGIN`/`COMMIT`; a statement's preparation is counted apart).
    package static var roundTripsSent: Int { roundTrips.load(ordering: .relaxed) }
    /// Statements prepared so far, by every `PostgresConnection` of this process (one round trip each).
    package static var statementsPrepared: Int { preparations.load(ordering: .relaxed) }
    private static let roundTrips = Atomic<Int>(0)
    private static let preparations = Atomic<Int>(0)
    private static func countRoundTrip() { roundTrips.add(1, ordering: .relaxed) }

    private func connectionError(sql: String?) -> PostgresError {
        PostgresError(sqlState: "", message: String(cString: PQerrorMessage(handle)).trimmingTrailingSpace, sql: sql)
    }
}

/// A statement's parameters as libpq takes them, packed in one buffer: integers, reals and text
/// as NUL-terminated text, blobs in binary form (with a spare byte, so that even an empty one has
/// an address), NULL as no bytes. One allocation for all of a statement's values: one or two per
/// value, an integer's through string interpolation, cost about a tenth of a grouped event.
private struct Parameters {
    private var bytes: [UInt8] = []
    /// Where each value is in `bytes` and how libpq reads it, one entry per value: the arrays
    /// libpq takes are made from these on the stack when the statement is sent (an array for each,
    /// and one of pointers, cost five allocations a statement).
    private var places: [Place] = []

    private struct Place {
        /// Where the value starts in `bytes`; -1 for NULL.
        var start: Int
        /// How many bytes a binary value has (libpq ignores it for text).
        var length: Int32
        /// 1 for binary, 0 for text.
        var format: Int32
    }

    init(_ values: [SQLValue]) {
        places.reserveCapacity(values.count)
        bytes.reserveCapacity(values.reduce(0) { size, value in
            switch value {
            case .null: size
            case .integer, .real: size + 32
            case .text(let text): size + text.utf8.count + 1
            case .blob(let blob): size + blob.count + 1
            }
        })
        for value in values {
            var place = Place(start: bytes.count, length: 0, format: 0)
            switch value {
            case .null: place.start = -1
            case .integer(let integer): bytes.appendDecimal(Int(integer))
            case .real(let real): bytes.append(contentsOf: "\(real)".utf8)
            case .text(let text): text.withUTF8Bytes { bytes.append(contentsOf: $0) }
            case .blob(let blob):
                bytes.append(contentsOf: blob)
                (place.length, place.format) = (Int32(blob.count), 1)
            }
            if place.start >= 0 { bytes.append(0) }
            places.append(place)
        }
    }

    var count: Int { places.count }

    /// Calls `body` with libpq's `paramValues`, `paramLengths` and `paramFormats`, valid for the call.
    func withPointers<R>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress.map { UnsafeRawPointer($0) }
            return withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: places.count) { values in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * places.count) { numbers in
                    for (index, place) in places.enumerated() {
                        values.initializeElement(
                            at: index,
                            to: place.start < 0 ? nil : base.map { ($0 + place.start).assumingMemoryBound(to: CChar.self) })
                        numbers.initializeElement(at: index, to: place.length)
                        numbers.initializeElement(at: places.count + index, to: place.format)
                    }
                    // Plain values (pointers, integers): nothing to deinitialize.
                    return body(
                        UnsafePointer(values.baseAddress), UnsafePointer(numbers.baseAddress),
                        numbers.baseAddress.map { UnsafePointer($0 + places.count) })
                }
            }
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
