import Navigation
import Store

extension UserTable {
    /// Whether `user`'s row is in the table, read on `connection` (the check a run makes first,
    /// and the one SQLite's writer makes with the event's write).
    package func contains(_ user: Int64, on connection: any SQLConnection) throws -> Bool {
        try connection.queryFirst(existsSQL, [.integer(user)], { _ in true }) != nil
    }
}
