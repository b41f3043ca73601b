import Foundation
import TestSupport
import Testing

/// Each status code of DESIGN §4, produced by the request that should produce it,
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
        #expect(try await client.get("").status == 401)
    }

    @Test(arguments: Backend.allCases) func badRequests(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        let path = "/v1/sessions/\(client.id)/events"
        let malformed = try await post(server, path, token: client.token, body: "{not json")
        #expect(malformed.status == 400)
        #expect(malformed.headers["content-type"] == "application/problem+json")
        let missing = try await post(server, path, token: client.token, body: #"{"screen":"s1"}"#)
        #expect(missing.status == 400)
        #expect((missing.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "event")
        let notJSON = try await post(server, path, token: client.token, contentType: "text/plain", body: "hello")
        #expect(notJSON.status == 415)
        let badPlatform = try await post(server, "/v1/sessions", body: #"{"platform":"watch"}"#)
        #expect(badPlatform.status == 422)

        let undeclared = try await client.send("fly")
        #expect(undeclared.status == 422)
        #expect((undeclared.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "event")
        #expect((undeclared.json["detail"] as? String)?.contains("signUp, logIn") == true)
        _ = try await client.send("logIn")
        let wrongShape = try await client.send("submit", ["email": 5])
        #expect(wrongShape.status == 422)
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
        #expect(none.status == 401)
        #expect(none.headers["www-authenticate"] == "Bearer")
        let bad = try await TestHTTP.request(
            port: server.port, "GET", "/v1/sessions/\(client.id)", headers: ["Authorization": "Bearer nope"])
        #expect(bad.status == 401)
        let foreign = try await TestHTTP.request(
            port: server.port, "GET", "/v1/sessions/\(client.id)", headers: ["Authorization": "Bearer \(other.token)"])
        #expect(foreign.status == 404)
        let unknown = try await TestHTTP.request(
            port: server.port, "GET", "/v1/sessions/doesnotexist", headers: ["Authorization": "Bearer \(client.token)"])
        #expect(unknown.status == 404)
    }

    @Test(arguments: Backend.allCases) func staleScreenAndIfMatchCarryTheState(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        _ = try await client.send("logIn")
        let stale = try await client.send("signUp", screen: "s1")
        #expect(stale.status == 409)
        #expect((stale.json["state"] as? [String: Any])?["top"] as? String == "s2")
        #expect((stale.json["state"] as? [String: Any])?["version"] as? Int == 2)

        let mismatch = try await client.send("back", headers: ["If-Match": "\"1\""])
        #expect(mismatch.status == 412)
        #expect((mismatch.json["state"] as? [String: Any])?["version"] as? Int == 2)
        let match = try await client.send("back", headers: ["If-Match": "\"2\""])
        #expect(match.status == 200)
        #expect(client.version == 3)
        #expect(try await client.send("logIn", headers: ["If-Match": "W/\"3\""]).status == 200)
        #expect(try await client.send("back", headers: ["If-Match": "*"]).status == 200)
        #expect(try await client.send("logIn", headers: ["If-Match": "garbage"]).status == 412)
        let longKey = try await client.send("logIn", headers: ["Idempotency-Key": String(repeating: "k", count: 201)])
        #expect(longKey.status == 400)
    }

    @Test(arguments: Backend.allCases) func oversizedBodyIs413(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        let client = try await SessionClient.create(port: server.port)
        let huge = String(repeating: "x", count: 70_000)
        let response = try await post(server, "/v1/sessions/\(client.id)/events", token: client.token, body: #"{"screen":"s1","event":"\#(huge)"}"#)
        #expect(response.status == 413)
        #expect(response.headers["content-type"] == "application/problem+json")
    }

    @Test(arguments: Backend.allCases) func unknownRoutes(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        #expect(try await TestHTTP.request(port: server.port, "GET", "/v2/nothing").status == 404)
        let wrongMethod = try await TestHTTP.request(port: server.port, "PUT", "/v1/sessions")
        #expect(wrongMethod.status == 405)
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
        #expect(last?.status == 503)
        #expect(last?.headers["retry-after"] == "1")
        #expect(last?.headers["content-type"] == "application/problem+json")
        // Sessions created before the quota was hit still answer.
        var first = try #require(created.first)
        #expect(try await first.refresh().status == 200)
        #expect(first.version == 1)
    }
}
