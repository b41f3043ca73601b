/// Where an app keeps its users, when each is one row of one table: the alternative to a
/// `NavigationApp.UserCheck` closure that lets the platform check the signed-in user without a read
/// of its own. The check then rides on each event's write, as a condition of the session's
/// update (the user's row looked up by `idColumn`): an event of a user deleted meanwhile
/// (by the app, another node or by hand) does not commit, and runs again with the check made
/// first, which starts the session over signed out, as a closure that answers false would.
///
/// A closure is a read before every signed-in event: on PostgreSQL a round trip of its own, on
/// SQLite a reader's transaction even for events whose flows read nothing. Declare a table
/// instead when "the user exists" means "their row exists"; keep the closure for anything more
/// (a soft-deleted flag, a user held by another service).
public struct UserTable: Sendable, Hashable {
    /// The table, as SQL names it (`users`, or `app.users` with a schema).
    public let name: String
    /// The column holding `SessionUser.id`: an integer, unique within the table.
    public let idColumn: String

    /// Users are the rows of table `name`, each user's id in `idColumn`.
    public init(_ name: String, idColumn: String = "id") {
        self.name = name
        self.idColumn = idColumn
    }

    /// What is wrong with the declaration, in sentences (empty when nothing is): the names go
    /// into SQL as they are, so each must be a plain identifier.
    var problems: [String] {
        var problems: [String] = []
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count > 2 || !parts.allSatisfy(Self.isPlainIdentifier) {
            problems.append(
                "the user table's name \"\(name)\" is not a plain SQL name (letters, digits and _, not starting "
                    + "with a digit; a schema before a dot)")
        }
        if !Self.isPlainIdentifier(Substring(idColumn)) {
            problems.append(
                "the user table's id column \"\(idColumn)\" is not a plain SQL name (letters, digits and _, not "
                    + "starting with a digit)")
        }
        return problems
    }

    private static func isPlainIdentifier(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return text.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
