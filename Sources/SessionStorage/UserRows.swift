import Store

/// An app's table of users, one row each, as the session service checks a signed-in user in it.
package struct UserRows: Sendable, Hashable {
    /// The table, as SQL names it (checked to be a plain name by the app's declaration).
    package let name: String
    /// The column holding the user's id.
    package let idColumn: String
    /// Made once: SQLite's writer runs it with every signed-in event, and its statement is found
    /// by where this text is kept.
    private let existsSQL: String

    package init(name: String, idColumn: String) {
        self.name = name
        self.idColumn = idColumn
        self.existsSQL = Self.row(of: name, idColumn: idColumn, user: "?1")
    }

    /// The query that finds the row of the user SQL `user` names.
    private static func row(of name: String, idColumn: String, user: String) -> String {
        "SELECT 1 FROM \(name) WHERE \(idColumn) = \(user)"
    }

    /// Whether `user`'s row is in the table, read on `connection`.
    package func contains(_ user: Int64, on connection: any SQLConnection) throws -> Bool {
        try connection.queryFirst(existsSQL, [.integer(user)], { _ in true }) != nil
    }

    /// SQL that holds when the user bound to parameter `parameter` has a row.
    package func exists(parameter: String) -> String {
        "EXISTS (\(Self.row(of: name, idColumn: idColumn, user: parameter)))"
    }
}
