#if canImport(Glibc)
import Glibc
#endif

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
        // Measured once, then compared only with entries of its length (byte by byte against
        // each entry, reading the C string a byte at a time, cost ~200 instructions a text).
        let utf8 = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
        // By index, each entry read in place: `for entry in table` copied every entry tried (its
        // bytes and its string retained, then released).
        for index in table.indices where table[index].bytes.count == utf8.count {
            if table[index].bytes.withUnsafeBufferPointer({ $0.elementsEqual(utf8) }) { return table[index].string }
        }
        // As `String(cString:)` reads it (invalid UTF-8 repaired), without measuring it again.
        return String(decoding: utf8, as: UTF8.self)
    }

    private static func table(_ strings: [String]) -> [(bytes: [UInt8], string: String)] {
        strings.map { (Array($0.utf8), $0) }
    }
}
