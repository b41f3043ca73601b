/// A connection's prepared statements, by SQL text, at most `capacity` of them.
///
/// Most texts are `static let`s whose bytes never move, so a lookup first tries the address of
/// the text's bytes: a hash of two words instead of the whole text (about 700 instructions for a
/// journal entry's insert, and an event looks up about ten statements). An address is noted only
/// for the very text a statement was prepared from, which the statement keeps alive: while the
/// entry exists, no other text can have those bytes' address.
struct StatementCache {
    private struct Address: Hashable {
        let bytes: UnsafeRawPointer
        let count: Int
    }

    let capacity: Int
    private var byText: [String: Statement] = [:]
    private var byAddress: [Address: Statement] = [:]

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { byText.count }

    /// The statement for `sql`, prepared by `prepare` on first use. Past the capacity the cache
    /// starts over (for apps that put values into their SQL text; a statement in use lives on
    /// until its caller is done with it).
    mutating func statement(_ sql: String, prepare: (String) throws -> Statement) rethrows -> Statement {
        let address = Self.address(of: sql)
        if let address, let cached = byAddress[address], cached.sql == sql { return cached }
        if let cached = byText[sql] { return cached }
        let statement = try prepare(sql)
        if byText.count >= capacity {
            byText.removeAll(keepingCapacity: true)
            byAddress.removeAll(keepingCapacity: true)
        }
        byText[sql] = statement
        if let address, Self.address(of: statement.sql) == address { byAddress[address] = statement }
        return statement
    }

    mutating func removeAll() {
        byAddress.removeAll()
        byText.removeAll()
    }

    /// Where `text`'s bytes are kept, when that is stable: not for a small string, whose bytes
    /// live inside the value and are copied out for each look.
    private static func address(of text: String) -> Address? {
        let count = text.utf8.count
        guard count > 15 else { return nil }
        return text.utf8.withContiguousStorageIfAvailable { $0.baseAddress.map { Address(bytes: UnsafeRawPointer($0), count: count) } }
            ?? nil
    }
}
