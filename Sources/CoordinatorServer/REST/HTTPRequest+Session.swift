import Foundation
import HTTPServer
import Navigation

extension HTTPRequest {
    /// The token of `Authorization: Bearer <token>`, if sent.
    var bearerToken: String? {
        guard let header = headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1].trimmingOptionalWhitespace())
    }

    /// The body as a JSON object: `415` if not sent as JSON, `400` if not a JSON object.
    func jsonObject() throws -> JSONValue {
        // The media type before any parameter; cut on bytes (`split` walks characters).
        let contentType = headers["Content-Type"].map {
            Substring($0.utf8.prefix { $0 != UInt8(ascii: ";") }).trimmingOptionalWhitespace().lowercased()
        }
        guard contentType == "application/json" || contentType?.hasSuffix("+json") == true else {
            throw Problem(.unsupportedMediaType, detail: "Send the body as application/json.")
        }
        guard let value = try? JSONValue.parse(body), case .object = value else {
            throw Problem(.invalidBody, detail: "The body is not a JSON object.")
        }
        return value
    }
}
