/// The texts most requests repeat, made once: a method, the version, the usual header names and
/// values. `String(cString:)` measures, validates and (past 15 bytes) allocates each of a
/// request's dozen or so C strings; one of these is found by comparing bytes, and is the same
/// immortal string every time. Only an exact match is taken: a name sent in other letters keeps
/// its own spelling.
enum CommonTexts {
    static let methods = CommonTexts.table(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
    static let versions = CommonTexts.table(["HTTP/1.1", "HTTP/1.0"])
    static let headerNames = CommonTexts.table([
        "Host", "Content-Type", "Content-Length", "Authorization", "Accept", "User-Agent", "Connection",
        "Accept-Encoding", "Accept-Language", "If-Match", "Idempotency-Key",
    ])
    static let headerValues = CommonTexts.table(["application/json", "keep-alive", "close", "*/*"])

    /// `text` as a string: one of `table`'s when it is one of them byte for byte.
    static func string(_ text: UnsafePointer<CChar>, among table: [(bytes: [UInt8], string: String)]) -> String {
        let first = UInt8(bitPattern: text[0])
        for entry in table where entry.bytes[0] == first && matches(text, entry.bytes) { return entry.string }
        return String(cString: text)
    }

    private static func table(_ strings: [String]) -> [(bytes: [UInt8], string: String)] {
        strings.map { (Array($0.utf8), $0) }
    }

    /// Whether the NUL-terminated `text` is `bytes`.
    private static func matches(_ text: UnsafePointer<CChar>, _ bytes: [UInt8]) -> Bool {
        for index in bytes.indices where UInt8(bitPattern: text[index]) != bytes[index] { return false }
        return text[bytes.count] == 0
    }
}
