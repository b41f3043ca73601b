import Store

/// The database refused a statement of an event's flow (or of the service): a violated
/// constraint, a syntax error, an unknown table. Not a storage failure: the same request fails
/// the same way, so it is a bug to fix (an answer of `500`, logged with `cause` and `statement`),
/// never a "retry". Nothing the event did was kept.
package struct StatementFailed: Error, CustomStringConvertible, Sendable {
    /// The database's error.
    package let error: any DatabaseError

    package init(_ error: any DatabaseError) {
        self.error = error
    }

    /// Why the database refused it, in its words (never the values bound to the statement).
    package var cause: String { error.message }
    /// The statement as written, with its placeholders.
    package var statement: String? { error.sql }

    package var description: String {
        "the database refused a statement: \(cause)" + (statement.map { " (SQL: \($0))" } ?? "")
    }
}
