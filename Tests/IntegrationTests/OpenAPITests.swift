import Foundation
import TestSupport
import Testing

/// The OpenAPI document parses, validates as OpenAPI 3.1, is what the server serves, and names
/// exactly the routes the router serves.
@Suite struct OpenAPITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let document = repository.appendingPathComponent("api/openapi.yaml").path

    /// Runs a program to its end (killed past `ChildProcess`'s deadline), waiting off Swift's pool,
    /// and returns its status and output.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await TestHTTP.offPool { try ChildProcess.run(executable, arguments) }
    }

    @Test func documentValidatesAndNamesEveryRoute() async throws {
        let script = """
            import sys, yaml
            from openapi_spec_validator import validate
            document = yaml.safe_load(open(sys.argv[1]))
            validate(document)
            for path, item in document["paths"].items():
                for method in item:
                    if method in ("get", "post", "put", "patch", "delete"):
                        print(method.upper(), path)
            """
        let validated = try await Self.run("/usr/bin/env", ["python3", "-c", script, Self.document])
        #expect(validated.status == 0, "\(validated.output)")
        let documented = Set(validated.output.split(separator: "\n").map(String.init))

        let routes = try await Self.run(ServerProcess.binaryPath, ["routes"])
        #expect(routes.status == 0)
        let served = Set(routes.output.split(separator: "\n").map(String.init))
        #expect(served.count >= 9)
        #expect(documented == served)
    }

    @Test func theServerServesTheDocument() async throws {
        let server = try await ServerProcess.start()
        let response = try await TestHTTP.request(port: server.port, "GET", "/openapi.yaml")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/yaml")
        #expect(response.body == Array(try Data(contentsOf: URL(fileURLWithPath: Self.document))))
    }
}
