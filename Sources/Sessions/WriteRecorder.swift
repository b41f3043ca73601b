import Navigation
import Store

/// A connection that passes every statement on to `base` and records the model writes among them
/// (`INSERT`, `UPDATE`, `DELETE`, `REPLACE`): each statement as written, with its placeholders
/// (never the values bound to them, which may be secret), and the rows it changed. The journal
/// keeps them with the event (`JournalRecord.writes`); `check-deploy` records a replay's the same
/// way and says where the new build writes differently. It also notes whether any statement ran
/// (a flow that read data: its replay runs over today's data).
final class WriteRecorder: SQLConnection {
    let base: any SQLConnection
    /// A statement ran (or was tried).
    private(set) var used = false
    /// The writes, in order.
    private(set) var writes: [Write] = []

    struct Write: Hashable {
        /// The statement as written, its whitespace collapsed.
        let statement: String
        let rows: Int

        var json: JSONValue { ["sql": .string(statement), "rows": .int(rows)] }
        var line: String { "\(statement) (\(rows) row\(rows == 1 ? "" : "s"))" }
    }

    init(_ base: any SQLConnection) { self.base = base }

    var dialect: SQLDialect { base.dialect }

    func execute(_ sql: String) throws {
        used = true
        try base.execute(sql)
    }

    func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
        used = true
        let rows = try base.run(sql, values)
        note(sql, rows: rows)
        return rows
    }

    func query<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
        used = true
        let rows = try base.query(sql, values, map)
        note(sql, rows: rows.count)
        return rows
    }

    func queryFirst<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> T? {
        used = true
        let row = try base.queryFirst(sql, values, map)
        note(sql, rows: row == nil ? 0 : 1)
        return row
    }

    func commitIfChanged(_ sql: String, _ values: [SQLValue], checkedBy check: CommitCheck?) throws -> Bool {
        used = true
        return try base.commitIfChanged(sql, values, checkedBy: check)
    }

    func runAfterCommit(_ sql: String, _ values: [SQLValue]) throws {
        try base.runAfterCommit(sql, values)
    }

    /// Records `sql` when it writes (an `INSERT … RETURNING` read through `query` counts).
    private func note(_ sql: String, rows: Int) {
        // The verb first, on the statement's first bytes: a reading flow's queries cost no copy.
        let verb = sql.utf8.drop(while: { $0 == 32 || ($0 >= 9 && $0 <= 13) }).prefix(7).map { $0 & 0xDF }
        guard Self.writeVerbs.contains(where: { verb.starts(with: $0) }) else { return }
        writes.append(Write(statement: sql.split(whereSeparator: \.isWhitespace).joined(separator: " "), rows: rows))
    }

    /// The verbs of writes, upper case (a byte `& 0xDF` upper-cases an ASCII letter).
    private static let writeVerbs = ["INSERT", "UPDATE", "DELETE", "REPLACE"].map { Array($0.utf8) }

    /// The writes as the journal stores them: a JSON array, `[]` for none (NULL is "not recorded").
    var journalText: String {
        writes.isEmpty ? "[]" : JSONValue.array(writes.map(\.json)).serializedString
    }

    /// The writes a journal entry stored (`journalText`), as lines.
    static func lines(ofStored text: String?) -> [String] {
        guard let text, let stored = try? JSONValue.parse(Array(text.utf8)) else { return [] }
        return (stored.arrayValue ?? []).map {
            Write(statement: $0["sql"]?.stringValue ?? "?", rows: $0["rows"]?.intValue ?? 0).line
        }
    }
}
