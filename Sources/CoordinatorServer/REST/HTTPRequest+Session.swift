import CoordinatorJSON
import Foundation
import HTTPServer
import Navigation

extension HTTPRequest {
    /// The token of `Authorization: Bearer <token>`, if sent.
    var bearerToken: String? {
        guard let header = headers["Authorization"] else { return nil }
        // Cut on the header's bytes in place, as `split(separator: " ", maxSplits: 1)` would on
        // characters (it walked them: a few thousand instructions per request; the string's UTF-8
        // view, indexed and sliced, still cost 2,500). Leading spaces are skipped.
        return header.withUTF8Bytes { bytes -> String? in
            let space = UInt8(ascii: " ")
            var start = 0
            while start < bytes.count, bytes[start] == space { start += 1 }
            var schemeEnd = start
            while schemeEnd < bytes.count, bytes[schemeEnd] != space { schemeEnd += 1 }
            guard schemeEnd + 1 < bytes.count, Self.equalIgnoringCase(bytes[start..<schemeEnd], "bearer") else { return nil }
            let token = bytes[(schemeEnd + 1)...].rangeWithoutOptionalWhitespace()
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[token]), as: UTF8.self)
        }
    }

    /// Whether `bytes` spell `lowercase` (ASCII) in any case: without the lowercased copy of
    /// them a comparison made (an allocation per request for the scheme and the media type).
    private static func equalIgnoringCase(_ bytes: some Collection<UInt8>, _ lowercase: StaticString) -> Bool {
        lowercase.withUTF8Buffer { expected in
            bytes.count == expected.count && zip(bytes, expected).allSatisfy { byte, want in
                byte == want || (want >= UInt8(ascii: "a") && want <= UInt8(ascii: "z") && byte == want - 32)
            }
        }
    }

    /// The body as a JSON object: `415` if not sent as JSON, `400` if not a JSON object.
    func jsonObject() throws -> JSONValue {
        try requireJSONMediaType()
        guard let value = try? JSONValue.parse(body), case .object = value else { throw Self.notAnObject }
        return value
    }

    /// The body's members, in order, handed to `member`: what `jsonObject()` accepts and refuses,
    /// with the same problems, for a route that reads a few known members (no table, no lookups).
    func jsonObjectMembers(_ member: (String, JSONValue) -> Void) throws {
        try requireJSONMediaType()
        do { try JSONParser.parseObject(body, member) } catch { throw Self.notAnObject }
    }

    private static var notAnObject: Problem { Problem(.invalidBody, detail: "The body is not a JSON object.") }

    /// `415` unless the body is sent as JSON (`application/json` or a `+json` type).
    private func requireJSONMediaType() throws {
        let contentType = headers["Content-Type"]
        // The usual spelling is one comparison; any other is cut and folded. The media type is
        // what comes before a parameter, cut on bytes (`split` walks characters).
        guard contentType != "application/json" else { return }
        let mediaType = contentType.map {
            Substring($0.utf8.prefix { $0 != UInt8(ascii: ";") }).trimmingOptionalWhitespace().utf8
        }
        guard let mediaType,
            Self.equalIgnoringCase(mediaType, "application/json")
                || (mediaType.count >= 5 && Self.equalIgnoringCase(mediaType.suffix(5), "+json"))
        else {
            throw Problem(.unsupportedMediaType, detail: "Send the body as application/json.")
        }
    }
}
