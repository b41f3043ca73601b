import Foundation
import TestSupport
import Testing

/// Malformed and hostile requests: each gets a problem (never a 5xx), nothing changes, and the
/// server stays up.
@Suite struct MalformedInputTests {
    static let hostileBodies: [String] = [
        "", "{", "}", "[]", "null", "0", "\"s\"", "{\"screen\":1,\"event\":2}", "{\"screen\":\"s1\",\"event\":null}",
        "{\"screen\":\"s1\",\"event\":\"logIn\",\"payload\":[1,2]}", "{\"screen\":\"s1\",\"event\":\"logIn\",\"payload\":\"x\"}",
        "{\"screen\":\"s1\",\"event\":\"logIn\",\"payload\":{\"a\":1e400}}", "{\"screen\":\"\u{0}\",\"event\":\"\u{0}\"}",
        String(repeating: "[", count: 50_000), String(repeating: "{\"a\":", count: 10_000) + "1" + String(repeating: "}", count: 10_000),
        "{\"screen\":\"s1\",\"event\":\"" + String(repeating: "é", count: 20_000) + "\"}", "{\"screen\":\"s1\",\"event\":\"\\ud800\"}",
        "{\"screen\":\"s1\",\"event\":\"signUp\",\"screen\":\"s1\"}", "{\"screen\":\"s1\",\"event\":\"signUp\",\"payload\":{\"x\":" + String(repeating: "9", count: 5000) + "}}",
    ]

    @Test func hostileBodiesGetProblemsAndChangeNothing() async throws {
        let server = try await ServerProcess.start()
        var client = try await SessionClient.create(port: server.port)
        for body in Self.hostileBodies {
            let response = try await TestHTTP.request(
                port: server.port, "POST", "/v1/sessions/\(client.id)/events",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(client.token)"], body: body)
            #expect((400..<500).contains(response.status), "\(response.status) for \(body.prefix(60))")
            #expect(response.headers["content-type"] == "application/problem+json")
        }
        _ = try await client.refresh()
        #expect(client.version == 1)
        #expect(try await TestHTTP.request(port: server.port, "GET", "/healthz").status == 200)
    }

    @Test func randomRequestsNeverGetA5xx() async throws {
        let server = try await ServerProcess.start()
        let client = try await SessionClient.create(port: server.port)
        var random = SplitMix64(state: 2026)
        let methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "BREW"]
        let paths = [
            "/", "/v1/sessions", "/v1/sessions/\(client.id)", "/v1/sessions/\(client.id)/events", "/v1/sessions/\(client.id)/tree",
            "/v1/sessions/../../etc/passwd", "/v1/sessions/%00", "/v1//sessions", "/v1/screens?x=1&y", "/healthz/extra",
            "/v1/sessions/" + String(repeating: "a", count: 3000),
        ]
        let tokens = ["Bearer \(client.token)", "Bearer", "Basic abc", "Bearer " + String(repeating: "x", count: 500), ""]
        let contentTypes = ["application/json", "text/plain", "application/json; charset=utf-8", "", "application/problem+json"]
        for _ in 0..<300 {
            var headers: [String: String] = [:]
            let token = tokens.randomElement(using: &random)!
            if !token.isEmpty { headers["Authorization"] = token }
            let type = contentTypes.randomElement(using: &random)!
            if !type.isEmpty { headers["Content-Type"] = type }
            if Bool.random(using: &random) { headers["If-Match"] = ["\"1\"", "*", "W/\"x\"", "nonsense"].randomElement(using: &random)! }
            if Bool.random(using: &random) { headers["Idempotency-Key"] = ["k", "", String(repeating: "k", count: 300)].randomElement(using: &random)! }
            let body = Bool.random(using: &random)
                ? Self.hostileBodies.randomElement(using: &random)!
                : String((0..<Int.random(in: 0..<200, using: &random)).map { _ in Character(UnicodeScalar(UInt8.random(in: 32..<127, using: &random))) })
            let response = try await TestHTTP.request(
                port: server.port, methods.randomElement(using: &random)!, paths.randomElement(using: &random)!, headers: headers,
                body: body)
            #expect(response.status < 500, "\(response.status): \(response.text.prefix(200))")
        }
        #expect(try await TestHTTP.request(port: server.port, "GET", "/healthz").status == 200)
    }

    /// The bearer scheme is matched without regard to case, with spaces around the token
    /// ignored; anything else is no token at all (401), never another session's.
    @Test func theAuthorizationHeaderNamesATokenOnlyAsBearer() async throws {
        let server = try await ServerProcess.start()
        let client = try await SessionClient.create(port: server.port)
        let path = "/v1/sessions/\(client.id)"
        for header in ["Bearer \(client.token)", "bearer \(client.token)", "BEARER   \(client.token)  ", "  Bearer \(client.token)"] {
            let response = try await TestHTTP.request(port: server.port, "GET", path, headers: ["Authorization": header])
            #expect(response.status == 200, "\(header): \(response.status)")
        }
        for header in ["Bearer", "Bearer ", "Bearer    ", "Basic \(client.token)", "Bearer\(client.token)", client.token] {
            let response = try await TestHTTP.request(port: server.port, "GET", path, headers: ["Authorization": header])
            #expect(response.status == 401, "\(header): \(response.status)")
        }
    }
}
