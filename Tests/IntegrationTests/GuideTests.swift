import Foundation
import TestSupport
import Testing

/// The guide's code is `Examples/Greeter`, word for word: `make test` builds and tests that
/// package, so the guide compiles and works; and that package, copied out of the repository,
/// builds, passes its tests and serves from wherever its binary is copied.
@Suite struct GuideTests {
    @Test func everyCodeBlockOfTheGuideIsTheFileItNames() async throws {
        let guide = try String(
            contentsOf: OpenAPITests.repository.appendingPathComponent("docs/guide.md"), encoding: .utf8)
        let parts = guide.components(separatedBy: "<!-- file: ").dropFirst()
        #expect(parts.count >= 8)
        for part in parts {
            let path = try #require(part.components(separatedBy: " -->").first)
            let fence = try #require(part.range(of: "```"))
            let codeStart = try #require(part[fence.upperBound...].firstIndex(of: "\n"))
            let code = part[part.index(after: codeStart)...]
            let end = try #require(code.range(of: "\n```"))
            let file = try String(contentsOf: OpenAPITests.repository.appendingPathComponent(path), encoding: .utf8)
            #expect(String(code[..<end.lowerBound]) == file.trimmingCharacters(in: .newlines), "\(path)")
        }
    }

    /// An app team's package in a folder of its own, depending on this repository by path:
    /// `swift build`, `swift test`, a release build; then its binary, copied alone (its migrations
    /// are built into it) to another folder (the package and its build deleted), serves with `serve --port
    /// --database` and nothing else. A debug build with its tests and a release build, each of
    /// the package and all its dependencies: 11 minutes beside the rest of the suite on CI's two
    /// cores, 30 and more on two cores shared with other builds. The limit only guards against a
    /// hang; each step has a deadline of its own.
    @Test(.timeLimit(.minutes(60))) func theGuidesPackageBuildsAndServesOutsideTheRepository() async throws {
        let files = FileManager.default
        let work = files.temporaryDirectory.appendingPathComponent("coordinatord-outside-\(UUID().uuidString)")
        defer { try? files.removeItem(at: work) }
        let package = work.appendingPathComponent("greeter")
        try files.createDirectory(at: package, withIntermediateDirectories: true)
        let example = OpenAPITests.repository.appendingPathComponent("Examples/Greeter")
        for item in ["Package.swift", "Sources", "Tests"] {
            try files.copyItem(at: example.appendingPathComponent(item), to: package.appendingPathComponent(item))
        }
        let manifestURL = package.appendingPathComponent("Package.swift")
        let manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        let pointed = manifest.replacingOccurrences(
            of: #"path: "../..""#, with: #"path: "\#(OpenAPITests.repository.standardizedFileURL.path)""#)
        #expect(pointed != manifest, "the example's manifest no longer depends on \"../..\"")
        try pointed.write(to: manifestURL, atomically: true, encoding: .utf8)
        // The versions this repository resolved, so the copy builds what the repository tests.
        let resolved = OpenAPITests.repository.appendingPathComponent("Package.resolved")
        if files.fileExists(atPath: resolved.path) {
            try files.copyItem(at: resolved, to: package.appendingPathComponent("Package.resolved"))
        }

        for step in [
            ["build", "--build-tests"], ["test", "--skip-build"], ["build", "-c", "release", "--product", "greeter"],
        ] {
            let result = try await TestHTTP.offPool {
                // A build of the package and its dependencies: minutes on 2 loaded cores, so a deadline of its own.
                try ChildProcess.run("/usr/bin/env", ["swift"] + step + ["--package-path", package.path], seconds: 1800)
            }
            try #require(result.status == 0, "swift \(step.joined(separator: " ")):\n\(result.output.suffix(4000))")
        }

        // The binary alone (the app's migrations are built into it: no resource bundle); the
        // package and its build are gone, so nothing can be found at a build path either.
        let built = package.appendingPathComponent(".build/release").resolvingSymlinksInPath()
        let served = work.appendingPathComponent("served")
        try files.createDirectory(at: served, withIntermediateDirectories: true)
        let bundles = try files.contentsOfDirectory(atPath: built.path).filter { $0.hasSuffix(".resources") }
        #expect(bundles.isEmpty, "the app's files are built into its binary")
        try files.copyItem(at: built.appendingPathComponent("greeter"), to: served.appendingPathComponent("greeter"))
        try files.removeItem(at: package)
        // What ships has no test hooks: a release build does not know the flag.
        let hooks = try ChildProcess.run(
            served.appendingPathComponent("greeter").path, ["serve", "--test-hooks", "--port", "0"], seconds: 60)
        #expect(hooks.status != 0 && hooks.output.contains("--test-hooks"), "\(hooks.output)")

        let server = try await ServerProcess.start(
            executable: served.appendingPathComponent("greeter").path,
            commandLine: ["serve", "--port", "0", "--database", "./greeter.sqlite"],
            databasePath: served.appendingPathComponent("greeter.sqlite").path, directory: served)
        let health = try await TestHTTP.request(port: server.port, "GET", "/healthz")
        #expect(health.status == 200)
        let document = try await TestHTTP.request(port: server.port, "GET", "/openapi.yaml")
        #expect(document.status == 200)
        #expect(document.text.hasPrefix("openapi: 3.1"))
        let page = try await TestHTTP.request(port: server.port, "GET", "/")
        #expect(page.status == 200)
        #expect(page.text.lowercased().hasPrefix("<!doctype html>"))

        var client = try await SessionClient.create(port: server.port)
        #expect(client.topScreen.name == "hello")
        try Journey.expect200(try await client.send("greet", ["name": "Ada"]))
        #expect(client.topScreen.name == "greeting")
        #expect(client.topScreen.props["text"] as? String == "Hello, Ada!")
        #expect(client.topScreen.props["times"] as? Int == 1)
        try Journey.expect200(try await client.send("selectTab", ["tab": "history"]))
        #expect(client.topScreen.name == "history")
        #expect((client.topScreen.props["people"] as? [[String: Any]])?.first?["name"] as? String == "Ada")
        #expect(try await server.stop() == 0)
        #expect(files.fileExists(atPath: server.databasePath))
        // A team's binary allocates with TCMalloc too (the server warns when glibc's comes first).
        #expect(!server.log.contains("not TCMalloc"), "\(server.log)")
    }
}
