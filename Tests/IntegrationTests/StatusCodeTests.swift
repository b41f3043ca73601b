import Foundation
import TestSupport
import Testing

/// Each status code of the REST contract (api/openapi.yaml), produced by the request that should produce it,
/// against the real binary with a real SQLite file and with a real PostgreSQL database.
@Suite struct StatusCodeTests {
    func post(_ server: ServerProcess, _ path: String, token: String? = nil, contentType: String = "application/json", body: String) async throws
        -> TestResponse
    {
        var headers = ["Content-Type": contentType]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return try await TestHTTP.request(port: server.port, "POST", path, headers: headers, body: body)
    }

    @Test(arguments: Backend.allCases) func createReadPostDelete(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        let created = try await post(server, "/v1/sessions", body: #"{"platform":"web"}"#)
        #expect(created.status == 201)
        let token = try #require(created.json["token"] as? String)
        let session = try #require(created.json["session"] as? [String: Any])
        let id = try #require(session["id"] as? String)
        #expect(created.headers["location"] == "/v1/sessions/\(id)")
        #expect(token.count >= 43)
        #expect(session["version"] as? Int == 1)
        #expect(session["top"] as? String == "s1")

        var client = SessionClient(port: server.port, id: id, token: token, stateText: SessionClient.json(session))
        let read = try await client.refresh()
        #expect(read.status == 200)
        #expect(read.headers["etag"] == "\"1\"")
        #expect(read.headers["content-type"] == "application/json")
        #expect(client.topScreen.name == "firstRun")

        let moved = try await client.send("logIn")
        #expect(moved.status == 200)
        #expect(moved.headers["etag"] == "\"2\"")
        #expect(client.topScreen.name == "login")
        #expect(client.topScreen.events == ["submit", "signUp", "back"])

        let tree = try await client.get("/tree")
        #expect(tree.status == 200)
        #expect((tree.json["root"] as? [String: Any])?["type"] as? String == "App")

        let deleted = try await TestHTTP.request(
            port: server.port, "DELETE", "/v1/sessions/\(id)", headers: ["Authorization": "Bearer \(token)"])
        #expect(deleted.status == 204)
        ProblemAssertions.expect(try await client.get(""), 401, "unauthorized")
    }

    @Test(arguments: Backend.allCases) func badRequests(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        let path = "/v1/sessions/\(client.id)/events"
        let malformed = try await post(server, path, token: client.token, body: "{not json")
        ProblemAssertions.expect(malformed, 400, "invalid-body")
        let missing = try await post(server, path, token: client.token, body: #"{"screen":"s1"}"#)
        ProblemAssertions.expect(missing, 400, "invalid-body")
        #expect((missing.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "event")
        // The body is read member by member: still a JSON object, each key once, strings where strings go.
        for body in [#"{"screen":"s1","event":"logIn","screen":"s1"}"#, #"["s1","logIn"]"#, #"{"screen":"s1","event":"logIn"} {}"#] {
            ProblemAssertions.expect(try await post(server, path, token: client.token, body: body), 400, "invalid-body")
        }
        let numbered = try await post(server, path, token: client.token, body: #"{"screen":1,"event":"logIn","extra":[1]}"#)
        ProblemAssertions.expect(numbered, 400, "invalid-body")
        #expect((numbered.json["errors"] as? [[String: Any]])?.map { $0["field"] as? String } == ["screen"])
        let notJSON = try await post(server, path, token: client.token, contentType: "text/plain", body: "hello")
        ProblemAssertions.expect(notJSON, 415, "unsupported-media-type")
        // The media type is compared without case, before its parameters; any `+json` type is JSON.
        for accepted in ["Application/JSON; charset=utf-8", "application/vnd.example+JSON"] {
            let read = try await post(server, path, token: client.token, contentType: accepted, body: "{not json")
            ProblemAssertions.expect(read, 400, "invalid-body")
        }
        let almost = try await post(server, path, token: client.token, contentType: "application/jsonx", body: "{}")
        ProblemAssertions.expect(almost, 415, "unsupported-media-type")
        let badPlatform = try await post(server, "/v1/sessions", body: #"{"platform":"watch"}"#)
        ProblemAssertions.expect(badPlatform, 422, "invalid-platform")

        let undeclared = try await client.send("fly")
        ProblemAssertions.expect(undeclared, 422, "undeclared-event")
        #expect((undeclared.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "event")
        #expect((undeclared.json["detail"] as? String)?.contains("signUp, logIn") == true)
        _ = try await client.send("logIn")
        let wrongShape = try await client.send("submit", ["email": 5])
        ProblemAssertions.expect(wrongShape, 422, "invalid-payload")
        let errors = wrongShape.json["errors"] as? [[String: Any]] ?? []
        #expect(errors.map { $0["field"] as? String } == ["email", "password"])
        #expect(errors.map { $0["message"] as? String } == ["must be a string", "is required"])
        // Nothing changed.
        #expect(try await client.refresh().headers["etag"] == "\"2\"")
    }

    @Test(arguments: Backend.allCases) func tokensAndSessions(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        let client = try await SessionClient.create(port: server.port)
        let other = try await SessionClient.create(port: server.port)
        let none = try await TestHTTP.request(port: server.port, "GET", "/v1/sessions/\(client.id)")
        ProblemAssertions.expect(none, 401, "unauthorized")
        #expect(none.headers["www-authenticate"] == "Bearer")
        let bad = try await TestHTTP.request(
            port: server.port, "GET", "/v1/sessions/\(client.id)", headers: ["Authorization": "Bearer nope"])
        ProblemAssertions.expect(bad, 401, "unauthorized")
        let foreign = try await TestHTTP.request(
            port: server.port, "GET", "/v1/sessions/\(client.id)", headers: ["Authorization": "Bearer \(other.token)"])
        ProblemAssertions.expect(foreign, 404, "session-not-found")
        let unknown = try await TestHTTP.request(
            port: server.port, "GET", "/v1/sessions/doesnotexist", headers: ["Authorization": "Bearer \(client.token)"])
        ProblemAssertions.expect(unknown, 404, "session-not-found")
    }

    @Test(arguments: Backend.allCases) func staleScreenAndIfMatchCarryTheState(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        _ = try await client.send("logIn")
        let stale = try await client.send("signUp", screen: "s1")
        ProblemAssertions.expect(stale, 409, "stale-screen")
        #expect((stale.json["state"] as? [String: Any])?["top"] as? String == "s2")
        #expect((stale.json["state"] as? [String: Any])?["version"] as? Int == 2)

        let mismatch = try await client.send("back", headers: ["If-Match": "\"1\""])
        ProblemAssertions.expect(mismatch, 412, "version-mismatch")
        #expect((mismatch.json["state"] as? [String: Any])?["version"] as? Int == 2)
        let match = try await client.send("back", headers: ["If-Match": "\"2\""])
        #expect(match.status == 200)
        #expect(client.version == 3)
        #expect(try await client.send("logIn", headers: ["If-Match": "W/\"3\""]).status == 200)
        #expect(try await client.send("back", headers: ["If-Match": "*"]).status == 200)
        #expect(try await client.send("logIn", headers: ["If-Match": "garbage"]).status == 412)
        let longKey = try await client.send("logIn", headers: ["Idempotency-Key": String(repeating: "k", count: 201)])
        ProblemAssertions.expect(longKey, 400, "invalid-header")
    }

    @Test(arguments: Backend.allCases) func oversizedBodyIs413(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        let client = try await SessionClient.create(port: server.port)
        let huge = String(repeating: "x", count: 70_000)
        let response = try await post(server, "/v1/sessions/\(client.id)/events", token: client.token, body: #"{"screen":"s1","event":"\#(huge)"}"#)
        ProblemAssertions.expect(response, 413, "content-too-large")
    }

    @Test(arguments: Backend.allCases) func unknownRoutes(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        ProblemAssertions.expect(try await TestHTTP.request(port: server.port, "GET", "/v2/nothing"), 404, "no-such-route")
        let wrongMethod = try await TestHTTP.request(port: server.port, "PUT", "/v1/sessions")
        ProblemAssertions.expect(wrongMethod, 405, "method-not-allowed")
        #expect(wrongMethod.headers["allow"] == "POST")
    }

    @Test(arguments: Backend.allCases) func screenCatalog(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        let catalog = try await TestHTTP.request(port: server.port, "GET", "/v1/screens")
        #expect(catalog.status == 200)
        let screens = catalog.json["screens"] as? [[String: Any]] ?? []
        let names = screens.compactMap { $0["name"] as? String }
        #expect(names.contains("signUp.email") && names.contains("timeline") && names.contains("confirmDelete"))
        let byName = Dictionary(uniqueKeysWithValues: screens.map { ($0["name"] as? String ?? "", $0) })

        // Fields come from the screens' types: profile's user is optional (it is pushed as null
        // for a user who is gone), the login e-mail an identifier, the password a password.
        let profileProps = byName["profile"]?["props"] as? [[String: Any]] ?? []
        #expect(profileProps.first { $0["name"] as? String == "user" }?["optional"] as? Bool == true)
        let submit = (byName["login"]?["events"] as? [[String: Any]])?.first { $0["name"] as? String == "submit" }
        let fields = submit?["fields"] as? [[String: Any]] ?? []
        #expect(fields.map { $0["type"] as? String } == ["string", "password"])

        // Presentation hints, declared by the app.
        let settings = byName["settings"]?["presentation"] as? [String: Any]
        #expect(settings?["title"] as? String == "Settings")
        let delete = (settings?["events"] as? [String: Any])?["deleteAccount"] as? [String: Any]
        #expect(delete?["role"] as? String == "destructive")
        let timeline = byName["timeline"]?["presentation"] as? [String: Any]
        let actions = timeline?["itemActions"] as? [[String: Any]] ?? []
        #expect(actions.map { $0["path"] as? String } == ["posts", "posts.author"])
        #expect((timeline?["fields"] as? [String: Any])?["nextCursor"] as? [String: String] == ["display": "hidden"])
    }

    /// The inline schema of the event route's header `name` in api/openapi.yaml: its
    /// `minLength`, `maxLength` and `pattern`.
    static func documentedHeader(_ name: String) throws -> (minLength: Int?, maxLength: Int?, pattern: String?) {
        let document = try String(contentsOfFile: OpenAPITests.document, encoding: .utf8)
        let parameter = try #require(document.range(of: "- name: \(name)\n"))
        let schemaLine = try #require(
            document[parameter.upperBound...].split(separator: "\n").first { $0.contains("schema: {") })
        func value(_ key: String, _ pattern: String) -> String? {
            let expression = try? NSRegularExpression(pattern: "\(key): \(pattern)")
            let line = String(schemaLine)
            guard let match = expression?.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                let range = Range(match.range(at: 1), in: line)
            else { return nil }
            return String(line[range])
        }
        return (value("minLength", "([0-9]+)").flatMap(Int.init), value("maxLength", "([0-9]+)").flatMap(Int.init),
            value("pattern", "'([^']*)'"))
    }

    /// An `Idempotency-Key` is refused (400) exactly when the document's schema refuses it,
    /// counted in characters as JSON Schema counts (150 × "é" was within the document's 200
    /// characters but refused for its 300 bytes).
    @Test(arguments: Backend.allCases) func idempotencyKeysAreRefusedExactlyAsTheDocumentSays(backend: Backend) async throws {
        let schema = try Self.documentedHeader("Idempotency-Key")
        func documentAccepts(_ key: String) -> Bool {
            let length = key.unicodeScalars.count
            guard length >= (schema.minLength ?? 0), length <= (schema.maxLength ?? .max) else { return false }
            guard let pattern = schema.pattern else { return true }
            let expression = try? NSRegularExpression(pattern: pattern)
            return expression?.firstMatch(in: key, range: NSRange(key.startIndex..., in: key)) != nil
        }
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        let keys = [
            "k", "8e03978e-40d5-43e8-bc93-6894a57f9324", "!~", String(repeating: "a", count: 200),
            String(repeating: "a", count: 201), String(repeating: "é", count: 150), "clé", "a b", "ключ",
        ]
        for key in keys {
            // "fly" is no event of the top screen: an accepted key gets 422, a refused one 400.
            let response = try await client.send("fly", headers: ["Idempotency-Key": key])
            #expect(
                (response.status == 400) == !documentAccepts(key),
                "\(key.prefix(12))… (\(key.unicodeScalars.count) characters): \(response.status)")
            #expect([400, 422].contains(response.status))
        }
        #expect(try await client.refresh().status == 200)
        #expect(client.version == 1)
    }

    /// An empty `If-Match` is refused with 400 (the document says `minLength: 1`) and changes
    /// nothing; a generated client's percent-encoded quotes name the version like plain ones.
    @Test(arguments: Backend.allCases) func emptyIfMatchIs400AndEncodedQuotesMatch(backend: Backend) async throws {
        #expect(try Self.documentedHeader("If-Match").minLength == 1)
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        for empty in ["", "   "] {
            let refused = try await client.send("logIn", headers: ["If-Match": empty])
            ProblemAssertions.expect(refused, 400, "invalid-header")
            #expect((refused.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "If-Match")
        }
        #expect(try await client.refresh().status == 200)
        #expect(client.version == 1)

        #expect(try await client.send("logIn", headers: ["If-Match": "%221%22"]).status == 200)
        #expect(client.version == 2)
        #expect(try await client.send("back", headers: ["If-Match": "W/%222%22"]).status == 200)
        #expect(client.version == 3)
        let stale = try await client.send("logIn", headers: ["If-Match": "%222%22"])
        ProblemAssertions.expect(stale, 412, "version-mismatch")
        #expect((stale.json["state"] as? [String: Any])?["version"] as? Int == 3)
    }
}

/// `503` when storage refuses: a tiny storage quota fills up; nothing changes.
@Suite struct StorageFailureTests {
    @Test func fullStorageIs503AndChangesNothing() async throws {
        // Many sessions from one client fill the quota: no per-client rate here.
        let server = try await ServerProcess.start(arguments: ["--max-database-pages", "40", "--sessions-per-minute", "0"])
        var last: TestResponse?
        var created: [SessionClient] = []
        for _ in 0..<400 {
            let response = try await TestHTTP.request(
                port: server.port, "POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: "{}")
            last = response
            if response.status != 201 { break }
            created.append(
                SessionClient(
                    port: server.port, id: ((response.json["session"] as? [String: Any])?["id"] as? String)!,
                    token: response.json["token"] as! String, stateText: "{}"))
        }
        ProblemAssertions.expect(try #require(last), 503, "storage-unavailable")
        #expect(last?.headers["retry-after"] == "1")
        // Sessions created before the quota was hit still answer.
        var first = try #require(created.first)
        #expect(try await first.refresh().status == 200)
        #expect(first.version == 1)
    }
}
