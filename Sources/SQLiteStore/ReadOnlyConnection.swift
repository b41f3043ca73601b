import Store

/// A read-only connection as work tried off the writer sees it: statements that only read run,
/// any other is refused with `WriteRefused`, and the attempt is remembered, so that the work runs
/// again on the writer even if it caught the refusal and went on.
final class ReadOnlyConnection: SQLConnection {
    private let connection: SQLiteConnection
    /// The work tried to write.
    private(set) var triedToWrite = false

    init(_ connection: SQLiteConnection) { self.connection = connection }

    var dialect: SQLDialect { .sqlite }

    // Statements given as plain text (DDL, several at once) are treated as writes.
    func execute(_ sql: String) throws { throw refuse(sql) }

    func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
        try connection.run(readOnlyStatement(sql), values)
    }

    func query<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
        try connection.query(readOnlyStatement(sql), values, map)
    }

    func queryFirst<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> T? {
        try connection.queryFirst(readOnlyStatement(sql), values, map)
    }

    /// The statement for `sql`, looked up once, if running it cannot write.
    private func readOnlyStatement(_ sql: String) throws -> Statement {
        let statement = try connection.statement(sql)
        guard statement.isReadOnly else { throw refuse(sql) }
        return statement
    }

    private func refuse(_ sql: String) -> WriteRefused {
        triedToWrite = true
        return WriteRefused(sql: sql)
    }
}

/// A write tried on a read-only attempt; the work runs again on the writer.
struct WriteRefused: Error, CustomStringConvertible {
    let sql: String
    var description: String { "a write outside the writer: \(sql)" }
}
