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

    /// The sample app declares what a native shell needs: autofill hints, rules as data and not
    /// in labels, typed list items, dates as date-time, and a label for every field and event.
    @Test func sampleAppDeclaresHintsRulesAndTypedItems() async throws {
        let server = try await ServerProcess.start()
        let catalog = try await TestHTTP.request(port: server.port, "GET", "/v1/screens")
        let screens = catalog.json["screens"] as? [[String: Any]] ?? []
        let byName = Dictionary(uniqueKeysWithValues: screens.map { ($0["name"] as? String ?? "", $0) })
        func hints(_ screen: String, _ field: String) -> [String: Any] {
            ((byName[screen]?["presentation"] as? [String: Any])?["fields"] as? [String: Any])?[field] as? [String: Any] ?? [:]
        }
        #expect(hints("login", "email")["autofill"] as? String == "username")
        #expect(hints("login", "password")["autofill"] as? String == "current-password")
        let chosen = hints("signUp.password", "password")
        #expect(chosen["autofill"] as? String == "new-password")
        #expect(chosen["minLength"] as? Int == 15 && chosen["maxLength"] as? Int == 128)
        #expect(chosen["label"] as? String == "Password", "the rule is data, not part of the label")
        #expect(hints("changePassword", "currentPassword")["autofill"] as? String == "current-password")
        #expect(hints("changePassword", "newPassword")["autofill"] as? String == "new-password")
        #expect(hints("compose", "text")["maxLength"] as? Int == 500)

        let posts = (byName["timeline"]?["props"] as? [[String: Any]])?.first { $0["name"] as? String == "posts" }
        let item = posts?["items"] as? [String: Any]
        let members = item?["fields"] as? [[String: Any]] ?? []
        #expect(members.first { $0["name"] as? String == "createdAt" }?["type"] as? String == "date-time")
        let author = members.first { $0["name"] as? String == "author" }
        #expect((author?["fields"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["id", "displayName"])

        // Every field (at any depth) and every event says something to assistive technology.
        func labelled(_ fields: [[String: Any]]) -> Bool {
            fields.allSatisfy { field in
                (field["accessibilityLabel"] as? String).map { !$0.isEmpty } == true
                    && labelled(field["fields"] as? [[String: Any]] ?? [])
                    && labelled(((field["items"] as? [String: Any])?["fields"] as? [[String: Any]]) ?? [])
            }
        }
        for screen in screens {
            #expect(labelled(screen["props"] as? [[String: Any]] ?? []), "\(screen["name"] ?? "")")
            for event in screen["events"] as? [[String: Any]] ?? [] {
                #expect((event["accessibilityLabel"] as? String).map { !$0.isEmpty } == true)
                #expect(labelled(event["fields"] as? [[String: Any]] ?? []))
            }
        }
        try await server.stop()
    }
}
