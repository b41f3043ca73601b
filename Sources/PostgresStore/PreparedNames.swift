/// The names of a connection's prepared statements, by SQL text.
///
/// The last few texts found are compared before the table is hashed: a connection's statements
/// are mostly a few cached strings, and comparing a string with itself is immediate, while hashing
/// a folded event's text (a kilobyte or more) cost about 2,000 instructions per lookup.
struct PreparedNames {
    private var byText: [String: String] = [:]
    /// The texts found last, newest first.
    private var recent: [(sql: String, name: String)] = []
    private static let recentCount = 4

    /// How many statements are prepared.
    var count: Int { byText.count }

    /// The name `sql` was prepared as, if it was.
    mutating func name(of sql: String) -> String? {
        if let hit = recent.first(where: { $0.sql == sql }) { return hit.name }
        guard let name = byText[sql] else { return nil }
        if recent.count == Self.recentCount { recent.removeLast() }
        recent.insert((sql, name), at: 0)
        return name
    }

    /// Records that `sql` was prepared as `name`.
    mutating func add(_ name: String, for sql: String) {
        byText[sql] = name
    }

    /// Forgets every statement (they were dropped on the server).
    mutating func removeAll() {
        byText.removeAll()
        recent.removeAll()
    }
}
