import Foundation
import TestSupport
import Testing

/// The sample app in two languages (its translations and the sign-in kit's German): the catalog
/// and what flows write follow each request's `Accept-Language`, with English as the fallback.
@Suite struct LanguageTests {
    static let german = ["Accept-Language": "de-CH, de;q=0.9, en;q=0.5"]

    /// Each catalog in its language, with its own version: a cache keyed by `Vary` keeps both.
    @Test func theCatalogIsInTheLanguageAsked() async throws {
        let server = try await ServerProcess.start()
        let english = try await TestHTTP.request(port: server.port, "GET", "/v1/screens")
        let german = try await TestHTTP.request(port: server.port, "GET", "/v1/screens", headers: Self.german)
        // Unknown languages and no header at all: the app's own language.
        let french = try await TestHTTP.request(port: server.port, "GET", "/v1/screens", headers: ["Accept-Language": "fr"])
        func login(_ response: TestResponse) -> [String: Any] {
            let screens = response.json["screens"] as? [[String: Any]] ?? []
            return screens.first { $0["name"] as? String == "login" }?["presentation"] as? [String: Any] ?? [:]
        }
        #expect(login(english)["title"] as? String == "Log in")
        #expect(login(german)["title"] as? String == "Anmelden")
        #expect(((login(german)["fields"] as? [String: Any])?["password"] as? [String: Any])?["label"] as? String == "Passwort")
        #expect(login(french)["title"] as? String == "Log in")
        #expect(german.headers["content-language"] == "de" && english.headers["content-language"] == "en")
        #expect(german.headers["vary"] == "Accept-Language")
        #expect(german.headers["etag"] != english.headers["etag"] && french.headers["etag"] == english.headers["etag"])
        // An item action's `title` names a field: never translated.
        #expect(german.text.contains(#""title":"text""#))
        let unchanged = try await TestHTTP.request(
            port: server.port, "GET", "/v1/screens",
            headers: Self.german.merging(["If-None-Match": german.headers["etag"] ?? ""]) { $1 })
        #expect(unchanged.status == 304)
    }

    /// A flow's words in the language of the request that made them: a failed sign-in in German
    /// on one session and in English on another; a German sign-up gets German tab titles.
    @Test func flowsWriteInTheLanguageOfTheRequest() async throws {
        let server = try await ServerProcess.start()
        var german = try await SessionClient.create(port: server.port, headers: Self.german)
        try Journey.expect200(try await german.send("signUp", headers: Self.german))
        try Journey.expect200(try await german.send("next", ["email": "not an address"], headers: Self.german))
        #expect(german.topScreen.props["error"] as? String == "Geben Sie eine gültige E-Mail-Adresse ein.")
        try Journey.expect200(try await german.send("next", ["email": "ada@example.com"], headers: Self.german))
        try Journey.expect200(try await german.send("next", ["password": Journey.password], headers: Self.german))
        try Journey.expect200(try await german.send("finish", ["displayName": "Ada"], headers: Self.german))
        let tabs = ((german.state["stack"] as? [[String: Any]])?.first?["tabs"] as? [[String: Any]] ?? []).map { $0["title"] as? String }
        #expect(tabs == ["Start", "Profil"])

        var english = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await Journey.signIn(&english, email: "ada@example.com", password: "a wrong password, long enough"))
        #expect(english.topScreen.props["error"] as? String == "Wrong e-mail or password.")
        try Journey.expect200(
            try await english.send("submit", ["email": "ada@example.com", "password": "still the wrong one, long"], headers: Self.german))
        #expect(english.topScreen.props["error"] as? String == "Falsche E-Mail-Adresse oder falsches Passwort.")
    }
}
