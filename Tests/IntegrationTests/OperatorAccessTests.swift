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

    static func get(_ server: ServerProcess, _ path: String, key: String?) async throws -> TestResponse {
        try await TestHTTP.request(
            port: server.port, "GET", path, headers: key.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    @Test(arguments: Backend.allCases) func theOperatorKeyReadsAnySessionAndNothingElseDoes(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--operator-key-file", try Self.keyFile()])
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("signUp"))
        let base = "/v1/operator/sessions/\(client.id)"
        for path in [base, base + "/tree", base + "/history", base + "/history/1"] {
            ProblemAssertions.expect(try await Self.get(server, path, key: nil), 401, "operator-unauthorized")
            ProblemAssertions.expect(try await Self.get(server, path, key: client.token), 401, "operator-unauthorized")
            ProblemAssertions.expect(try await Self.get(server, path, key: Self.key + "x"), 401, "operator-unauthorized")
            ProblemAssertions.expect(try await Self.get(server, path, key: String(Self.key.dropLast())), 401, "operator-unauthorized")
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
