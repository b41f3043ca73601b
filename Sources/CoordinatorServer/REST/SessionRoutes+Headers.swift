import HTTPServer
import Navigation

/// The event request's `Idempotency-Key` and `If-Match` headers, read as `api/openapi.yaml` says.
extension SessionRoutes {
    /// The `Idempotency-Key`, if sent: 1 to 200 visible ASCII characters (`!` to `~`), so that
    /// characters and bytes are one count and every client sends the key the same way.
    static func idempotencyKey(of request: HTTPRequest) throws -> String? {
        guard let key = request.headers["Idempotency-Key"] else { return nil }
        guard (1...200).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Problem(
                .invalidHeader, detail: "An Idempotency-Key has 1 to 200 visible ASCII characters (! to ~).",
                extensions: ["errors": [FieldError(field: "Idempotency-Key", message: "must be 1 to 200 visible ASCII characters")]])
        }
        return key
    }

    /// The version `If-Match` demands (see `precondition(fromIfMatch:)`). An empty value names no
    /// version and cannot be meant: it is refused (400) rather than failing as a mismatch (412,
    /// whose `state` a client would adopt and retry with the same empty header) or being taken
    /// as absent (which would apply the event without the check the client asked for).
    static func ifMatch(of request: HTTPRequest) throws -> Int?? {
        guard let value = request.headers["If-Match"] else { return nil }
        guard !value.trimmingOptionalWhitespace().isEmpty else {
            throw Problem(
                .invalidHeader, detail: "If-Match is empty: send the ETag the event was made for (\"7\"), or *, or no If-Match.",
                extensions: ["errors": [FieldError(field: "If-Match", message: "is empty")]])
        }
        return precondition(fromIfMatch: value)
    }

    /// True when an `If-None-Match` value names `etag` (compared weakly, as RFC 9110 says for
    /// `If-None-Match`: `W/"abc"` matches `"abc"`), or is `*`.
    static func matches(ifNoneMatch value: String?, _ etag: String) -> Bool {
        guard let value else { return false }
        return value.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingOptionalWhitespace()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag
        }
    }

    /// The version an `If-Match` demands: `"7"` or `W/"7"` → 7; `*` → no demand (nil); anything
    /// else demands a version that never exists (.some(nil)), so it fails with 412. Percent-encoded
    /// quotes (`%227%22`, as some generated clients send the header) are decoded first.
    static func precondition(fromIfMatch value: String) -> Int?? {
        let decoded = value.contains("%") ? percentDecoded(value) : value
        var text = decoded.trimmingOptionalWhitespace()
        if text == "*" { return nil }
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        text = text.drop { $0 == "\"" }
        while text.last == "\"" { text = text.dropLast() }
        return .some(Int(text))
    }

    /// `value` with each `%XX` replaced by its byte; a `%` not followed by two hex digits stays.
    private static func percentDecoded(_ value: String) -> String {
        let bytes = Array(value.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
