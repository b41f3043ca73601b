/// How to tell whether a write committed when the connection broke before `COMMIT`'s answer came
/// (`SQLConnection.commitIfChanged(_:_:checkedBy:)`): a query whose first column is 1 when the
/// write committed, 0 when it did not, and NULL (or no row) when it cannot tell. It runs on another
/// connection once the broken connection's server process has ended, so the write has settled.
/// Typically it compares a random token the write stored with the one now stored.
public struct CommitCheck: Sendable {
    public let sql: String
    public let values: [SQLValue]

    public init(sql: String, values: [SQLValue]) {
        self.sql = sql
        self.values = values
    }
}
