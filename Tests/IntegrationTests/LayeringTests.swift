import Foundation
import TestSupport
import Testing

/// Each module depends only on what its layer may (docs/architecture.md, "Modules"): the session service knows no HTTP,
/// the runtime neither HTTP nor SQL, and apps and the account protections are built on the
/// public modules alone. Checked in the manifest and in every source file's imports.
@Suite struct LayeringTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let http: Set<String> = ["HTTPServer", "CMicroHTTPD", "CoordinatorServer"]
    static let storeBackends: Set<String> = ["SQLiteStore", "PostgresStore", "CSQLite", "CPostgres"]

    /// What each module must not depend on.
    static let forbidden: [String: Set<String>] = [
        "Navigation": http.union(storeBackends).union(["Store", "Sessions", "Secrets"]),
        "Sessions": http,
        "AccountProtection": http.union(storeBackends).union(["Sessions"]),
        "SampleApp": http.union(storeBackends).union(["Sessions"]),
    ]

    /// The targets and products each target depends on, by name, as the manifest says.
    static func manifestDependencies() async throws -> [String: Set<String>] {
        // A scratch path of its own: the package's `.build` is locked while `swift test` runs.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let (status, output) = try await TestHTTP.offPool {
            try ChildProcess.run(
                "/usr/bin/env", ["swift", "package", "--package-path", repository.path, "--scratch-path", scratch, "dump-package"],
                seconds: 120)
        }
        try #require(status == 0, "\(output)")
        let start = try #require(output.firstIndex(of: "{"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [String: Any])
        var dependencies: [String: Set<String>] = [:]
        for target in manifest["targets"] as? [[String: Any]] ?? [] {
            let name = target["name"] as? String ?? ""
            dependencies[name, default: []] = []
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                for (_, value) in dependency {
                    if let first = (value as? [Any])?.first as? String { dependencies[name, default: []].insert(first) }
                }
            }
        }
        return dependencies
    }

    /// The modules the Swift files under `Sources/<module>` import.
    static func imports(of module: String) throws -> Set<String> {
        let folder = repository.appendingPathComponent("Sources/\(module)")
        var imports: Set<String> = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ")
                if let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal"].contains($0) })
                {
                    imports.insert(String(words[index + 1]))
                }
            }
        }
        return imports
    }

    @Test func eachModuleDependsOnlyOnWhatItsLayerMay() async throws {
        let manifest = try await Self.manifestDependencies()
        for (module, forbidden) in Self.forbidden.sorted(by: { $0.key < $1.key }) {
            guard let declared = manifest[module] else {
                Issue.record("\(module) is not a target")
                continue
            }
            #expect(declared.isDisjoint(with: forbidden), "\(module) depends on \(declared.intersection(forbidden).sorted())")
            let imported = try Self.imports(of: module)
            #expect(!imported.isEmpty)
            #expect(imported.isDisjoint(with: forbidden), "\(module) imports \(imported.intersection(forbidden).sorted())")
        }
        // The sample app takes its protections from the module every app may opt into.
        #expect(manifest["SampleApp"]?.contains("AccountProtection") == true)
    }

    /// The server is Linux-only: the manifest, the README and a build for another platform say so.
    /// Modules no product ships (libmicrohttpd's face, the PostgreSQL store) are the package's
    /// own: `package` access, so no app can come to depend on them (docs/architecture.md, "Modules").
    @Test func modulesInNoProductDeclareNothingPublic() throws {
        for module in ["HTTPServer", "PostgresStore"] {
            let folder = Self.repository.appendingPathComponent("Sources/\(module)")
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let publicLines = text.split(separator: "\n").filter {
                    $0.trimmingCharacters(in: .whitespaces).hasPrefix("public ") || $0.contains(" public ")
                }
                #expect(publicLines.isEmpty, "\(module)/\(file): \(publicLines.prefix(3))")
            }
        }
    }

    @Test func theSupportedPlatformIsSaid() throws {
        let manifest = try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("// Supported: Linux only"))
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("runs on Linux only"))
        let guardFile = try String(
            contentsOf: Self.repository.appendingPathComponent("Sources/HTTPServer/LinuxOnly.swift"), encoding: .utf8)
        #expect(guardFile.contains("#if !os(Linux)\n#error("))
    }

    /// The client for native shells builds on Apple platforms too: Foundation alone (and, on
    /// Linux, Glibc's sockets for the live stream, in a file that builds only there), none of the
    /// server's modules (docs/architecture.md, "Modules").
    @Test func theClientUsesFoundationOnly() async throws {
        let manifest = try await Self.manifestDependencies()
        #expect(manifest["CoordinatorClient"] == [])
        #expect(try Self.imports(of: "CoordinatorClient") == ["Foundation", "FoundationNetworking", "Glibc"])
        let sockets = try String(
            contentsOf: Self.repository.appendingPathComponent("Sources/CoordinatorClient/Live/SocketStreamTransport.swift"),
            encoding: .utf8)
        #expect(sockets.hasPrefix("#if canImport(Glibc)\n"), "the socket transport builds on Linux only")
    }
}
