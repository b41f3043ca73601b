import Foundation
import TestSupport
import Testing

/// Operator endpoints (issue 23): an operator key of its own, from a flag or a file, never a
/// default; refused without it; every read logged.
@Suite struct OperatorAccessTests {
    static let key = "operator-key-0123456789-abcdefghijklmnop"

    static func keyFile() throws -> String {
        let path = ServerProcess.temporaryDatabasePath().replacingOccurrences(of: ".sqlite", with: ".operator-key")
        try Data((key + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func get(_ server: ServerProcess, _ path: String, key: String?, from source: String? = nil) async throws
        -> TestResponse
    {
        try await TestHTTP.offPool {
            try HTTPConnection(port: server.port, source: source).request(
                "GET", path, headers: key.map { ["Authorization": "Bearer \($0)"] } ?? [:])
        }
    }

    @Test(arguments: Backend.allCases) func theOperatorKeyReadsAnySessionAndNothingElseDoes(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--operator-key-file", try Self.keyFile()])
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("signUp"))
        let base = "/v1/operator/sessions/\(client.id)"
        for (index, path) in [base, base + "/tree", base + "/history", base + "/history/1"].enumerated() {
            // Each path's refusals from a client of its own: ten refusals a minute throttle a client.
            let source = "127.0.0.\(20 + index)"
            for key in [nil, client.token, Self.key + "x", String(Self.key.dropLast())] {
                ProblemAssertions.expect(try await Self.get(server, path, key: key, from: source), 401, "operator-unauthorized")
            }
            #expect(try await Self.get(server, path, key: Self.key).status == 200, "\(path)")
        }
        let state = try await Self.get(server, base, key: Self.key)
        #expect(SessionClient.json(state.json) == SessionClient.json(client.state))
        let history = try await Self.get(server, base + "/history", key: Self.key).json["entries"] as? [[String: Any]]
        #expect(history?.map { $0["event"] as? String ?? "" } == ["signUp", "(start)"])
        let tree = try await Self.get(server, base + "/tree", key: Self.key)
        #expect(tree.text == (try await client.get("/tree")).text)
        ProblemAssertions.expect(
            try await Self.get(server, "/v1/operator/sessions/nosuchsession/tree", key: Self.key), 404, "session-not-found")
        // The operator key is no user's token.
        ProblemAssertions.expect(
            try await Self.get(server, "/v1/sessions/\(client.id)", key: Self.key), 401, "unauthorized")

        try await server.stop()
        let log = try String(contentsOfFile: server.logPath, encoding: .utf8)
        let reads = log.split(separator: "\n").filter { $0.contains("operator read") && $0.contains(client.id) }
        #expect(reads.count == 7, "\(log)")
        #expect(!log.contains(Self.key))
    }

    /// Guessing the key gets slow: past ten refusals in a minute a client is throttled (429, even
    /// with the right key) and its refusals are logged once, not once each; other clients are not
    /// affected, and the client may try again a minute later.
    @Test func refusedOperatorRequestsAreThrottledAndLoggedOnce() async throws {
        let server = try await ServerProcess.start(arguments: ["--test-hooks", "--operator-key-file", try Self.keyFile()])
        let client = try await SessionClient.create(port: server.port)
        let path = "/v1/operator/sessions/\(client.id)"
        for _ in 0..<10 {
            ProblemAssertions.expect(try await Self.get(server, path, key: "guess", from: "127.0.0.40"), 401, "operator-unauthorized")
        }
        let throttled = try await Self.get(server, path, key: "guess", from: "127.0.0.40")
        ProblemAssertions.expect(throttled, 429, "throttled")
        #expect(Int(throttled.headers["retry-after"] ?? "") ?? 0 >= 1)
        ProblemAssertions.expect(try await Self.get(server, path, key: Self.key, from: "127.0.0.40"), 429, "throttled")
        #expect(try await Self.get(server, path, key: Self.key, from: "127.0.0.41").status == 200)
        try await server.advanceClock(seconds: 61)
        #expect(try await Self.get(server, path, key: Self.key, from: "127.0.0.40").status == 200)

        try await server.stop()
        let lines = server.log.split(separator: "\n")
        #expect(lines.filter { $0.contains("operator request refused") }.count == 1)
        #expect(lines.filter { $0.contains("operator requests throttled") }.count == 1)
    }

    /// An operator key must be one no request could miss and no one could guess.
    @Test func aWeakOperatorKeyIsRefusedAtStart() throws {
        for (key, reason) in [
            (String(repeating: " ", count: 32), "spaces"), (String(repeating: "a", count: 32), "random"),
            ("short-key-0123456789", "32 characters"),
        ] {
            let (status, output) = try ChildProcess.run(
                ServerProcess.binaryPath, ["serve", "--port", "0", "--database", ServerProcess.temporaryDatabasePath(), "--operator-key", key])
            #expect(status != 0)
            #expect(output.contains(reason), "\(output)")
        }
    }

    @Test func withoutAKeyOperatorEndpointsAreClosed() async throws {
        let server = try await ServerProcess.start()
        let client = try await SessionClient.create(port: server.port)
        ProblemAssertions.expect(
            try await Self.get(server, "/v1/operator/sessions/\(client.id)/history", key: client.token), 403,
            "operator-access-disabled")
        ProblemAssertions.expect(
            try await Self.get(server, "/v1/operator/sessions/\(client.id)/history", key: ""), 403, "operator-access-disabled")
    }

    @Test func aShortOperatorKeyIsRefusedAtStart() async throws {
        await #expect(throws: (any Error).self) {
            try await ServerProcess.start(arguments: ["--operator-key", "short"])
        }
    }
}
