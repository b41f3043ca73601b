import Foundation

extension JSONValue {
    /// Compact JSON with object keys sorted, so equal values give equal bytes.
    /// Hand-written because rendering a state is on every request's path.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        write(to: &output)
        return output
    }

    /// The value as JSON text.
    public var serializedString: String { String(decoding: serialized(), as: UTF8.self) }

    /// Parses JSON text; throws for anything that is not JSON, or nested deeper than 64 levels.
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try JSONParser.parse(bytes)
    }

    package func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: Self.nullBytes)
        case .bool(let bool): output.append(contentsOf: bool ? Self.trueBytes : Self.falseBytes)
        case .int(let int): output.appendDecimal(int)
        case .double(let double):
            if double.isFinite {
                output.append(contentsOf: (double.rounded() == double && abs(double) < 1e15 ? String(Int(double)) : "\(double)").utf8)
            } else {
                output.append(contentsOf: Self.nullBytes)
            }
        case .string(let string): Self.writeString(string, to: &output)
        case .array(let array):
            output.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            // The members sorted as pairs: sorting the keys and looking each up again hashed every key twice.
            for (index, member) in object.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static let nullBytes = Array("null".utf8)
    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    package static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        string.withUTF8Bytes { bytes in
            // Runs of bytes that need no escaping are copied in one go.
            var runStart = 0
            forEachByteToEscape(in: bytes) { index, byte in
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): output.append(contentsOf: [92, 34])
                case UInt8(ascii: "\\"): output.append(contentsOf: [92, 92])
                case 0x0A: output.append(contentsOf: [92, UInt8(ascii: "n")])
                case 0x0D: output.append(contentsOf: [92, UInt8(ascii: "r")])
                case 0x09: output.append(contentsOf: [92, UInt8(ascii: "t")])
                default:
                    output.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The bytes `text` takes inside a JSON string as `JSONValue` writes it (the quotes around it
    /// not counted): a quote, a backslash, a tab or a line break takes two, other control
    /// characters six, every other byte one. For apps that budget what a screen's props may hold.
    public static func escapedByteCount(of text: String) -> Int {
        return text.withUTF8Bytes { bytes in
            var count = bytes.count
            forEachByteToEscape(in: bytes) { _, byte in
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x09, 0x0A, 0x0D: count += 1
                default: count += 5
                }
            }
            return count
        }
    }

    /// Calls `body` with the place and value of each byte of `bytes` that a JSON string must
    /// escape (a control character, a quote, a backslash), in order. Plain text is skipped 8 bytes
    /// at a time: screens' props are mostly text, and a byte at a time was most of writing them.
    @inline(__always)
    private static func forEachByteToEscape(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int, UInt8) -> Void) {
        guard let base = bytes.baseAddress else { return }
        var index = 0
        while index < bytes.count {
            if index + 8 <= bytes.count,
                !anyNeedsEscaping(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
            }
            let byte = bytes[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { body(index, byte) }
            index += 1
        }
    }

    /// Whether any of the 8 bytes in `word` is a control character, a quote or a backslash.
    /// Each test is the classic "some byte is less than n" word trick, exact as a yes or no:
    /// `(x - n·ones) & ~x & highs` is nonzero exactly when some byte of `x` is below `n` (n ≤ 128).
    @inline(__always)
    private static func anyNeedsEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let control = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (control | quote | backslash) & highs != 0
    }
}

extension [UInt8] {
    /// Appends a literal's UTF-8 bytes. A `StaticString` has them at hand, where a `String`'s
    /// `utf8` view goes through the generic sequence path, and a snapshot and an answer append
    /// some forty literals.
    @inline(__always)
    package mutating func appendLiteral(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// `value` in decimal, written without making a `String`: States, snapshots and PostgreSQL's
    /// parameters are full of numbers, and string interpolation cost a few per cent of an event.
    package mutating func appendDecimal(_ value: Int) {
        // One or two digits byte by byte: most numbers a snapshot writes (ids, versions, counts)
        // are that small, and copying them from a buffer cost ~150 instructions each.
        if value >= 0 && value < 100 {
            if value >= 10 { append(UInt8(ascii: "0") + UInt8(value / 10)) }
            append(UInt8(ascii: "0") + UInt8(value % 10))
            return
        }
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}

extension String {
    /// The string's UTF-8 bytes, lent without a copy when the string is native. (`withUTF8` is
    /// mutating: calling it on a `var` copy of a `let` retained the string every time.) Inlinable:
    /// unspecialized, each call looked up `Optional<Result>`'s metadata at run time (~600
    /// instructions, ten times per PostgreSQL event).
    @inlinable
    package func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
