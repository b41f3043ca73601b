import Navigation
import Testing

/// `JSONValue` writes strings (and counts their escaped bytes) eight bytes at a time where nothing
/// needs escaping: every character that must be escaped is escaped wherever it sits in the word,
/// and nothing else is.
struct JSONStringEscapingTests {
    /// The escaping rules, a byte at a time.
    private func reference(_ string: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case ..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        return String(decoding: out + [UInt8(ascii: "\"")], as: UTF8.self)
    }

    @Test func everyASCIICharacterAtEveryPlaceOfAWordIsWrittenByTheRules() {
        for length in 1...19 {
            for place in 0..<length {
                for byte in UInt8(0)...UInt8(127) {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    bytes[place] = byte
                    let string = String(decoding: bytes, as: UTF8.self)
                    #expect(JSONValue.string(string).serializedString == reference(string), "byte \(byte) at \(place) of \(length)")
                    #expect(JSONValue.escapedByteCount(of: string) == reference(string).utf8.count - 2, "byte \(byte) at \(place)")
                }
            }
        }
    }

    @Test func textWithNonASCIIAndCharactersToEscapeAround() {
        let cases = [
            "", "é", "naïve \"quoted\" text\n", String(repeating: "ü", count: 9) + "\t", "\u{1F600}\\\u{1F600}\u{7F}",
            String(repeating: "x", count: 64) + "\u{1}", "\u{0}" + String(repeating: "y", count: 15) + "\u{1F}",
            "0123456\"0123456\\0123456\r",
        ]
        for string in cases {
            #expect(JSONValue.string(string).serializedString == reference(string))
            #expect(JSONValue.escapedByteCount(of: string) == reference(string).utf8.count - 2)
        }
    }
}
