/// The one rewrite between the SQL apps write and the SQL PostgreSQL takes.
enum PostgresSQL {
    /// `sql` with each `?N` parameter written `$N`, leaving string literals, quoted names and
    /// comments alone.
    static func numberedParameters(_ sql: String) -> String {
        var output: [UInt8] = []
        let bytes = Array(sql.utf8)
        output.reserveCapacity(bytes.count)
        var index = 0
        var quote: UInt8?  // ' or " while inside a literal or a quoted name
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                    output.append(bytes[index])
                    index += 1
                }
                continue
            } else if byte == UInt8(ascii: "?"), index + 1 < bytes.count, (48...57).contains(bytes[index + 1]) {
                output.append(UInt8(ascii: "$"))
                index += 1
                continue
            }
            output.append(byte)
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
