import Foundation
import TestSupport
import Testing

/// The screen catalog against the real server: its `ETag` is its version, a client that has it
/// is answered `304` without it, and it names the app.
@Suite struct CatalogTests {
    @Test func catalogHasAnETagAndAnswers304WhenUnchanged() async throws {
        let server = try await ServerProcess.start()
        let first = try await TestHTTP.request(port: server.port, "GET", "/v1/screens")
        #expect(first.status == 200)
        let version = try #require(first.json["version"] as? String)
        let etag = try #require(first.headers["etag"])
        #expect(etag == "\"\(version)\"")
        #expect((first.json["app"] as? [String: Any])?["name"] as? String == "Chirp")

        // The same tag (strong, weak, or among others) or `*`: not modified, no body, the tag again.
        for value in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
            let again = try await TestHTTP.request(port: server.port, "GET", "/v1/screens", headers: ["If-None-Match": value])
            #expect(again.status == 304, "If-None-Match: \(value)")
            #expect(again.body.isEmpty)
            #expect(again.headers["etag"] == etag)
        }
        // Another tag (a catalog from before a deploy): the whole catalog.
        let stale = try await TestHTTP.request(port: server.port, "GET", "/v1/screens", headers: ["If-None-Match": "\"0000\""])
        #expect(stale.status == 200)
        #expect(stale.body == first.body)
        #expect(stale.headers["etag"] == etag)
        try await server.stop()
    }
}
