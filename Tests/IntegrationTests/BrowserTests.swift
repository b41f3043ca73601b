import Foundation
import TestSupport
import Testing

/// The web client in headless Chromium (Debian's, driven through chromedriver) through the
/// app's journey; fails on any JavaScript error. Screenshots land in `.build/screenshots`.
@Suite struct BrowserTests {
    @Test func webClientJourneyInChromium() async throws {
        let server = try await ServerProcess.start()
        let screenshots = OpenAPITests.repository.appendingPathComponent(".build/screenshots").path
        let script = OpenAPITests.repository.appendingPathComponent("Tests/browser/journey.py").path
        let result = try await OpenAPITests.run("/usr/bin/env", ["python3", script, "http://127.0.0.1:\(server.port)", screenshots])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("browser journey passed"))
        #expect(FileManager.default.fileExists(atPath: screenshots + "/timeline-phone.png"))
        try await server.stop()
    }

    /// A browser whose user reads German gets the app in German (its languages go with every
    /// request); an English one stays English.
    @Test func theWebClientSpeaksTheBrowsersLanguage() async throws {
        try await Self.runScript("language.py", saying: "browser language passed")
    }

    /// Two windows on one session: a tap in one shows in the other (the live stream), and a
    /// window that was offline catches up when it is back online.
    @Test func twoWindowsOnOneSessionStayInSync() async throws {
        try await Self.runScript("live.py", saying: "browser live passed")
    }

    /// Runs `Tests/browser/<script>` against a new server; it passes when it exits 0 saying `passed`.
    static func runScript(_ script: String, saying passed: String) async throws {
        let server = try await ServerProcess.start()
        let path = OpenAPITests.repository.appendingPathComponent("Tests/browser/\(script)").path
        let result = try await OpenAPITests.run("/usr/bin/env", ["python3", path, "http://127.0.0.1:\(server.port)"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(passed))
        try await server.stop()
    }
}
