/// The connection offered to work that may need none: it refuses every statement with
/// `ConnectionNeeded` and remembers that it did, so that the caller runs the work again on a real
/// connection even if the work caught the refusal and went on. Work that never touched it ran
/// without the database, on the caller's thread, and what it returned is what it would have
/// returned on any connection.
package final class UnusedConnection: SQLConnection {
    package let dialect: SQLDialect
    /// The work ran (or tried to run) a statement.
    package private(set) var wasNeeded = false

    package init(dialect: SQLDialect) { self.dialect = dialect }

    package func execute(_ sql: String) throws { throw refuse(sql) }

    package func run(_ sql: String, _ values: [SQLValue]) throws -> Int { throw refuse(sql) }

    package func query<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
        throw refuse(sql)
    }

    package func queryFirst<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> T? {
        throw refuse(sql)
    }

    package func commitIfChanged(_ sql: String, _ values: [SQLValue], checkedBy check: CommitCheck?) throws -> Bool {
        throw refuse(sql)
    }

    package func runAfterCommit(_ sql: String, _ values: [SQLValue]) throws { throw refuse(sql) }

    private func refuse(_ sql: String) -> ConnectionNeeded {
        wasNeeded = true
        return ConnectionNeeded(sql: sql)
    }
}

/// A statement tried on an `UnusedConnection`; the work runs again on a connection.
package struct ConnectionNeeded: Error, CustomStringConvertible {
    package let sql: String
    package var description: String { "a statement where no connection was offered: \(sql)" }
}
