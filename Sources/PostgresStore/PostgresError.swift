import Store

/// A failed PostgreSQL call: its SQLSTATE (empty when the connection itself failed), the
/// server's or libpq's message, and the SQL that failed.
package struct PostgresError: DatabaseError, Equatable {
    /// The five-character SQLSTATE, such as `23505`; empty when there is none.
    package let sqlState: String
    /// The server's or libpq's message.
    package let message: String
    /// The statement that failed, when there was one.
    package let sql: String?

    /// An error with `sqlState` and `message`, for `sql`.
    package init(sqlState: String, message: String, sql: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
    }

    package var isUniqueViolation: Bool { sqlState == "23505" }

    /// No SQLSTATE (the connection broke), or a class that means the server or its storage failed:
    /// 08 connection, 53 insufficient resources, 57 operator intervention, 58 system error; or it
    /// was busy past retries (a serialization failure or deadlock, a lock not available), or is
    /// read-only now (a standby). Any other SQLSTATE refuses the statement itself (23 a constraint,
    /// 42 a syntax error or an unknown name, 25P02 a transaction that went on after a failed statement).
    package var isStorageFailure: Bool {
        sqlState.isEmpty || ["08", "53", "57", "58"].contains(String(sqlState.prefix(2)))
            || isRetryable || sqlState == "55P03" || sqlState == "25006"
    }

    /// The connection failed in a way that a server still starting (or a moment too busy to
    /// answer) gives: nothing listens yet, no answer within the connect timeout, or "starting up".
    package var meansNotReachableYet: Bool {
        sqlState.isEmpty
            && ["Connection refused", "timeout expired", "the database system is starting up"].contains {
                message.contains($0)
            }
    }

    /// A serialization failure or a deadlock: nothing was kept, and the same work may run again.
    package var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }

    package var description: String {
        let base = "PostgreSQL error \(sqlState.isEmpty ? "(connection)" : sqlState): \(message)"
        return sql.map { "\(base) (SQL: \($0))" } ?? base
    }
}

/// The connection broke at `BEGIN` or the transaction's first statement, before `COMMIT` was
/// sent: nothing committed, and the same work may run again on another connection.
package struct TransactionNotBegun: DatabaseError {
    /// Why `BEGIN` failed.
    package let cause: PostgresError
    /// The server process that ran it: one that never heard its client go (a partition) may hold
    /// what the first statement locked, which the work run again would wait for.
    package let serverProcess: Int32

    package var message: String { cause.message }
    package var isUniqueViolation: Bool { false }
    package var isStorageFailure: Bool { true }
    package var sql: String? { cause.sql }
    package var description: String { "cannot begin a transaction: \(cause)" }
}

/// The connection broke during `COMMIT`: the server may have committed before its answer was lost.
/// Its fate is asked on another connection, the way `lookup` says, once `serverProcess` has ended;
/// `result` is what the work returned, the answer if it did commit.
package struct CommitUnconfirmed: Error {
    /// How to find out whether the transaction committed.
    package enum Lookup: Sendable {
        /// Its id (`txid_current()`), for `txid_status`.
        case transaction(Int64)
        /// Its id was never known (it went in one round trip with `COMMIT`): a query that tells.
        case check(CommitCheck)
    }

    package let lookup: Lookup
    /// The server process that ran the transaction (`PQbackendPID`): once it has ended, the
    /// transaction has settled, committed or not.
    package let serverProcess: Int32
    package let result: any Sendable
    /// Why `COMMIT` got no answer.
    package let cause: PostgresError
}
