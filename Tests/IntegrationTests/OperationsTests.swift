import Foundation
import TestSupport
import Testing

/// The real binary on a free port with a real SQLite file.
@Suite struct OperationsTests {
    @Test func healthzMetricsAndGracefulStop() async throws {
        let server = try ServerProcess()
        let health = try await TestHTTP.request(port: server.port, "GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "ok")

        _ = try await TestHTTP.request(port: server.port, "GET", "/missing")
        let metrics = try await TestHTTP.request(port: server.port, "GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(metrics.text.contains(#"http_requests_total{method="GET",route="/healthz",status="200"} 1"#))
        #expect(metrics.text.contains(#"http_requests_total{method="GET",route="unmatched",status="404"} 1"#))
        #expect(metrics.text.contains("http_request_duration_seconds_bucket"))

        #expect(server.stop(signal: SIGTERM) == 0)
        #expect(FileManager.default.fileExists(atPath: server.databasePath))
    }

    @Test func sigintAlsoStopsCleanly() throws {
        let server = try ServerProcess()
        #expect(server.stop(signal: SIGINT) == 0)
    }

    @Test func environmentVariablesConfigureTheServer() async throws {
        let server = try ServerProcess(environment: ["COORDINATORD_MAX_BODY_BYTES": "10"])
        let response = try await TestHTTP.request(
            port: server.port, "POST", "/healthz", headers: ["Content-Type": "application/json"],
            body: "{\"far more\": \"than ten bytes\"}")
        #expect(response.status == 413)
        server.stop()
    }

    @Test func argon2WeakerThanOWASPIsRefused() throws {
        let result = try OpenAPITests.run(ServerProcess.binaryPath, ["serve", "--port", "0", "--password-memory-mib", "8"])
        #expect(result.status != 0)
        #expect(result.output.contains("OWASP"))
    }

    @Test func healthzIs503WhenTheDatabaseFileIsGone() async throws {
        let server = try ServerProcess()
        #expect(try await TestHTTP.request(port: server.port, "GET", "/healthz").status == 200)
        try FileManager.default.removeItem(atPath: server.databasePath)
        let health = try await TestHTTP.request(port: server.port, "GET", "/healthz")
        #expect(health.status == 503)
        #expect(health.headers["content-type"] == "application/problem+json")
        server.stop()
    }
}
