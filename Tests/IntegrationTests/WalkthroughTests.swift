import Foundation
import TestSupport
import Testing

/// The README's curl walkthrough, run as written against the real server.
@Suite struct WalkthroughTests {
    @Test func readmeWalkthroughRuns() async throws {
        let readme = try String(
            contentsOf: OpenAPITests.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- walkthrough:start -->"))
        let end = try #require(readme.range(of: "<!-- walkthrough:end -->"))
        let script = readme[start.upperBound..<end.lowerBound]
            .replacingOccurrences(of: "```sh", with: "").replacingOccurrences(of: "```", with: "")
        let server = try await ServerProcess.start()
        let (status, output) = try await OpenAPITests.run(
            "/usr/bin/env", ["BASE=http://127.0.0.1:\(server.port)", "bash", "-c", "set -euo pipefail\n" + script])
        #expect(status == 0, "\(output)")
        #expect(output.contains("top: s23 version: 26"))
        #expect(output.contains(#""name":"firstRun""#))
    }
}
