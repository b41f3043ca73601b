/// A strict JSON parser into `JSONValue` (RFC 8259), with a nesting limit so that hostile input
/// cannot exhaust the stack. Written by hand because every request body passes through it.
package struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private let maximumDepth: Int
    /// How deep a request body may nest.
    package static let maximumDepth = 64

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `bytes`, refusing values nested deeper than `maximumDepth`.
    package static func parse(_ bytes: [UInt8], maximumDepth: Int = Self.maximumDepth) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("trailing characters") }
        return value
    }

    /// Parses `bytes` as one JSON object, handing each member to `member` in order: exactly what
    /// `parse` accepts as an object (duplicate keys refused), without building its table. For a
    /// body read for a few known members, where the table and a hashed lookup per member cost
    /// more than the parse.
    package static func parseObject(
        _ bytes: [UInt8], maximumDepth: Int = Self.maximumDepth, _ member: (String, JSONValue) throws -> Void
    ) throws {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        parser.skipWhitespace()
        guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") else {
            throw parser.failure("expected an object")
        }
        // The first keys are compared in a list on the stack (a list of our own cost an allocation
        // and a regrowth per body); past them, hashed (a hostile body may hold thousands).
        try withUnsafeTemporaryAllocation(of: String.self, capacity: 8) { few in
            var count = 0
            defer { few.baseAddress!.deinitialize(count: count) }
            var many: Set<String> = []
            try parser.members { key, value in
                guard !few[..<count].contains(key) else { return false }
                if count < few.count {
                    few.initializeElement(at: count, to: key)
                    count += 1
                } else {
                    guard many.insert(key).inserted else { return false }
                }
                try member(key, value)
                return true
            }
        }
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("trailing characters") }
    }

    private init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private func failure(_ reason: String) -> Failure {
        Failure(description: "invalid JSON at byte \(index): \(reason)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw failure("unknown literal")
        }
        index += expected.count
    }

    private mutating func nested<T>(_ body: (inout JSONParser) throws -> T) throws -> T {
        depth += 1
        guard depth <= maximumDepth else { throw failure("nested deeper than \(maximumDepth)") }
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func object() throws -> JSONValue {
        // Room for a few members once the first comes: grown from empty, the table was made for
        // one member, then made again for the second. An empty object (`{}` props) makes none.
        var table: [String: JSONValue] = [:]
        try members { key, value in
            if table.isEmpty { table.reserveCapacity(4) }
            return table.updateValue(value, forKey: key) == nil
        }
        return .object(table)
    }

    /// Reads the object at `index` (its `{`), handing each member to `add`, which answers false
    /// for a key it has seen already.
    private mutating func members(_ add: (String, JSONValue) throws -> Bool) throws {
        try nested { parser in
            parser.index += 1
            parser.skipWhitespace()
            if parser.peek(UInt8(ascii: "}")) { return }
            while true {
                parser.skipWhitespace()
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else {
                    throw parser.failure("expected a key")
                }
                let key = try parser.string()
                parser.skipWhitespace()
                guard parser.peek(UInt8(ascii: ":")) else { throw parser.failure("expected ':'") }
                // Duplicate keys are legal JSON but read differently by different parsers; refuse them.
                guard try add(key, try parser.value()) else { throw parser.failure("duplicate key \"\(key)\"") }
                parser.skipWhitespace()
                if parser.peek(UInt8(ascii: ",")) { continue }
                guard parser.peek(UInt8(ascii: "}")) else { throw parser.failure("expected ',' or '}'") }
                return
            }
        }
    }

    private mutating func array() throws -> JSONValue {
        try nested { parser in
            parser.index += 1
            var elements: [JSONValue] = []
            parser.skipWhitespace()
            if parser.peek(UInt8(ascii: "]")) { return .array(elements) }
            while true {
                elements.append(try parser.value())
                parser.skipWhitespace()
                if parser.peek(UInt8(ascii: ",")) { continue }
                guard parser.peek(UInt8(ascii: "]")) else { throw parser.failure("expected ',' or ']'") }
                return .array(elements)
            }
        }
    }

    /// Consumes `byte` if it is next.
    private mutating func peek(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func string() throws -> String {
        index += 1  // the opening quote
        var output: [UInt8] = []
        var runStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text: String?
                if output.isEmpty {
                    // No escape met: the string straight from the input, without a copy in between.
                    text = bytes.withUnsafeBufferPointer { [runStart, index] in
                        Self.text(UnsafeBufferPointer(rebasing: $0[runStart..<index]))
                    }
                } else {
                    output.append(contentsOf: bytes[runStart..<index])
                    text = output.withUnsafeBufferPointer(Self.text)
                }
                index += 1
                guard let text else { throw failure("invalid UTF-8") }
                return text
            }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                output.append(contentsOf: bytes[runStart..<index])
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"): output.append(contentsOf: try unicodeEscape())
                default: throw failure("unknown escape")
                }
                runStart = index
                continue
            }
            index += 1
        }
        throw failure("unterminated string")
    }

    /// `utf8` as a string, or nil when it is not UTF-8. ASCII, most of what clients send, is
    /// valid as it is and goes through `String(decoding:)`, which the compiler specializes;
    /// `String(validating:)` runs generic code that looks up two types' metadata per string,
    /// most of its cost on a short one.
    private static func text(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        var bits: UInt8 = 0
        for byte in utf8 { bits |= byte }
        return bits < 0x80 ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self)
    }

    /// The UTF-8 of a `\uXXXX` escape (after the `u`), joining surrogate pairs.
    private mutating func unicodeEscape() throws -> [UInt8] {
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("unpaired surrogate")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid code point") }
        return Array(String(Character(unicode)).utf8)
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("short \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Self.hexValue(byte) else { throw failure("bad \\u escape") }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func number() throws -> JSONValue {
        let start = index
        _ = peek(UInt8(ascii: "-"))
        guard try digits(allowLeadingZero: false) else { throw failure("expected a value") }
        var integral = true
        if peek(UInt8(ascii: ".")) {
            integral = false
            guard try digits(allowLeadingZero: true) else { throw failure("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            integral = false
            index += 1
            if !peek(UInt8(ascii: "+")) { _ = peek(UInt8(ascii: "-")) }
            guard try digits(allowLeadingZero: true) else { throw failure("expected an exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let int = Int(text) { return .int(int) }
        guard let double = Double(text), double.isFinite else { throw failure("number out of range") }
        return .double(double)
    }

    /// Consumes a run of digits; false if there is none. Without `allowLeadingZero`, `0` must stand alone.
    private mutating func digits(allowLeadingZero: Bool) throws -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        if !allowLeadingZero, index - start > 1, bytes[start] == UInt8(ascii: "0") { throw failure("leading zero") }
        return index > start
    }
}
