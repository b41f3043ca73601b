import Foundation
import TestSupport
import Testing

/// The operator's inspector in headless Chromium: refused with a wrong key; with the right one
/// it opens a session, shows its tree and timeline, and steps through its versions.
/// The screenshot lands in `.build/screenshots/inspector.png` (a copy is kept in docs/).
@Suite struct InspectorBrowserTests {
    @Test func inspectorStepsThroughASessionInChromium() async throws {
        let server = try await ServerProcess.start(arguments: ["--operator-key-file", try OperatorAccessTests.keyFile()])
        var client = try await SessionClient.create(port: server.port)
        try await Journey.register(&client, email: "inspect@example.com", displayName: "Ines")
        try Journey.expect200(try await client.send("compose"))
        try Journey.expect200(try await client.send("submit", ["text": "Seen by the inspector"]))
        let screenshots = OpenAPITests.repository.appendingPathComponent(".build/screenshots").path
        let script = OpenAPITests.repository.appendingPathComponent("Tests/browser/inspector.py").path
        let result = try await OpenAPITests.run(
            "/usr/bin/env",
            ["python3", script, "http://127.0.0.1:\(server.port)", client.id, OperatorAccessTests.key, screenshots])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("inspector passed"))
        #expect(FileManager.default.fileExists(atPath: screenshots + "/inspector.png"))
        try await server.stop()
    }
}
