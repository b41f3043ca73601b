import Store

/// A connection that passes every statement on to `base` and notes that one ran: the deploy
/// check tells an event whose flow read or wrote data (its replay runs over today's data, which
/// may have changed since) from one that only navigated (a difference there is the build's).
final class NotingConnection: SQLConnection {
    let base: any SQLConnection
    /// A statement ran (or was tried).
    private(set) var used = false

    init(_ base: any SQLConnection) { self.base = base }

    var dialect: SQLDialect { base.dialect }

    func execute(_ sql: String) throws {
        used = true
        try base.execute(sql)
    }

    func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
        used = true
        return try base.run(sql, values)
    }

    func query<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
        used = true
        return try base.query(sql, values, map)
    }

    func queryFirst<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> T? {
        used = true
        return try base.queryFirst(sql, values, map)
    }
}
