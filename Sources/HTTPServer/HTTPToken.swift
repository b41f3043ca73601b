/// RFC 9110 `token`: what methods and header field names are made of.
enum HTTPToken {
    /// Whether `byte` is a `tchar`: a letter, a digit, or one of ``!#$%&'*+-.^_`|~``.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            symbols.contains(byte)
        }
    }

    /// Whether `text` is a non-empty token.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    private static let symbols = Set("!#$%&'*+-.^_`|~".utf8)
}
