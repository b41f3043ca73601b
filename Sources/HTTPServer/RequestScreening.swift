import Foundation

/// Refuses, before any body is read, requests that HTTP/1.1 forbids, that a proxy in front
/// could frame differently from this server (request smuggling), or whose body size is not
/// declared (chunked).
///
/// A `Content-Length` libmicrohttpd cannot parse as one decimal number (`2, 2`, `-1`, `0x2`,
/// 2^64 or more) never gets here: the library answers it (400 or 413, closing the connection)
/// before the access handler is called, and 0.9.75 writes its status line and headers twice in
/// that answer (fixed in libmicrohttpd 1.0.0); docs/operations.md, "Abuse it withstands". The check below
/// covers what remains: such a value beside a `Transfer-Encoding` (then the library skips it).
enum RequestScreening {
    /// The problem to answer with, or nil when the request may proceed.
    static func problem(version: String, headers: HTTPHeaders) -> Problem? {
        // One pass over the fields, collecting only what the checks below read: this runs for
        // every request, and looking each name up on its own made an array per lookup.
        var length: String?
        var lengths = 0
        var encodings: [String] = []
        var hosts = 0
        // The fields read in place (iterating the headers copied each field, its two strings retained).
        let malformedName = headers.fields.withUnsafeBufferPointer { fields in
            for index in fields.indices {
                let name = fields[index].name
                // `Transfer-Encoding : chunked` is no header to libmicrohttpd (it keeps the space in
                // the name) but is one to some proxies: a body framed by one is a smuggled request to the other.
                guard HTTPToken.isToken(name) else { return true }
                if name.caseInsensitiveEquals("Content-Length") {
                    length = length ?? fields[index].value
                    lengths += 1
                } else if name.caseInsensitiveEquals("Transfer-Encoding") {
                    encodings.append(fields[index].value)
                } else if name.caseInsensitiveEquals("Host") {
                    hosts += 1
                }
            }
            return false
        }
        if malformedName {
            return Problem(.malformedRequest, detail: "A header name is not a token (no space may precede its colon).")
        }
        if lengths > 1 {
            return Problem(.malformedRequest, detail: "The request has more than one Content-Length.")
        }
        if let length, length.isEmpty || !length.utf8.allSatisfy({ (48...57).contains($0) }) {
            return Problem(.malformedRequest, detail: "Content-Length is not a decimal number.")
        }
        if !encodings.isEmpty {
            if length != nil {
                return Problem(.malformedRequest, detail: "The request has both Content-Length and Transfer-Encoding.")
            }
            let codings = encodings.joined(separator: ",").split(separator: ",").map {
                $0.trimmingOptionalWhitespace().lowercased()
            }
            if codings != ["chunked"] {
                return Problem(.unsupportedTransferCoding, detail: "No transfer coding is supported; send the body with a Content-Length.")
            }
            // libmicrohttpd parses chunk sizes itself and passes on only the data: a chunk declared
            // far past the body limit, then nothing, would hold the connection until the request
            // timeout. Bodies here are small JSON a client always has whole, so it must say their size.
            return Problem(.lengthRequired, detail: "Chunked request bodies are not accepted; send the body with a Content-Length.")
        }
        if version == "HTTP/1.1" && hosts != 1 {
            return Problem(.malformedRequest, detail: "An HTTP/1.1 request needs exactly one Host header.")
        }
        return nil
    }
}
