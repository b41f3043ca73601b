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
        // The session service reaches its tables through `SessionPersistence`, never a backend.
        "Sessions": http.union(storeBackends),
        // The session tables' SQL knows the store and nothing above it.
        "SessionStorage": http.union(storeBackends).union(["Navigation", "Sessions", "Secrets", "CoordinatorJSON"]),
        "AccountProtection": http.union(storeBackends).union(["Sessions"]),
        "SampleApp": http.union(storeBackends).union(["Sessions"]),
        "SignInKit": http.union(storeBackends).union(["Sessions"]),
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

    /// The SQL statements (and the lines of them) in the Swift files under `Sources/<module>`,
    /// comments left out: statements are found by the words that start them.
    static func sqlStatements(in module: String) throws -> [String] {
        let folder = repository.appendingPathComponent("Sources/\(module)")
        let statement = try Regex(
            #"\b(SELECT\b[^"]{0,300}?\bFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WITH\s+RECURSIVE|pg_notify)\b|"(BEGIN|ROLLBACK|COMMIT)""#)
        var found: [String] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let code = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            found += code.matches(of: statement).map { "\(file.lastPathComponent): \(code[$0.range].prefix(60))" }
        }
        return found
    }

    /// Stores own their SQL (docs/architecture.md, "Modules"): the session service holds no
    /// statement and no branch on the backend's dialect; the session tables' statements are in
    /// `SessionStorage` (those both backends accept) and in each backend's module.
    @Test func theSessionServiceHoldsNoSQLAndNoDialectBranch() throws {
        #expect(try Self.sqlStatements(in: "Sessions") == [])
        // The search finds statements where they are.
        #expect(try Self.sqlStatements(in: "SessionStorage").count > 40)
        #expect(try Self.sqlStatements(in: "PostgresStore").contains { $0.hasPrefix("FoldedEventSQL.swift") })
        let branch = try Regex(#"\.dialect\s*[=!]=|case\s+\.(postgresql|sqlite)\b"#)
        let folder = Self.repository.appendingPathComponent("Sources/Sessions")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.matches(of: branch).isEmpty, "\(file.lastPathComponent) branches on the dialect")
        }
    }

    /// The server is Linux-only: the manifest, the README and a build for another platform say so.
    /// Modules no product ships (libmicrohttpd's face, the PostgreSQL store) are the package's
    /// own: `package` access, so no app can come to depend on them (docs/architecture.md, "Modules").
    @Test func modulesInNoProductDeclareNothingPublic() throws {
        for module in ["HTTPServer", "PostgresStore", "SessionStorage"] {
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

    /// An app team's flow tests run where the server does not (a Mac): `CoordinatorFlowTesting`
    /// and everything it builds depend on no HTTP server, no PostgreSQL, no C allocator, and reach
    /// Linux-only calls and headers only behind a guard that has another branch or none.
    @Test func flowTestingNeedsNoServerAndNothingLinuxOnly() async throws {
        let manifest = try await Self.manifestDependencies()
        var closure: Set<String> = ["CoordinatorFlowTesting"]
        var queue = ["CoordinatorFlowTesting"]
        while let next = queue.popLast() {
            for dependency in manifest[next] ?? [] where closure.insert(dependency).inserted { queue.append(dependency) }
        }
        let server: Set<String> = ["HTTPServer", "CMicroHTTPD", "CoordinatorServer", "PostgresStore", "CPostgres", "CMalloc"]
        #expect(closure.isDisjoint(with: server), "\(closure.intersection(server).sorted())")
        #expect(closure.isSuperset(of: ["CoordinatorApp", "Sessions", "SQLiteStore", "Secrets", "CThreadName"]))
        // Each module's sources: a Linux-only line must sit under `#if canImport(Glibc)`,
        // `#if os(Linux)` or `#ifdef __linux__` (the branch taken on Linux only).
        let linuxOnly = [
            "import Glibc", "Glibc.", "fdatasync(", "epoll_", "<sys/prctl.h>", "<sys/epoll.h>", "<sys/syscall.h>", "prctl(",
            "sync_file_range(", "SYS_gettid",
        ]
        var checked = 0
        for module in closure.sorted() {
            let folder = Self.repository.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard ["swift", "h"].contains(file.pathExtension) else { continue }
                checked += 1
                var guards: [Bool] = []  // per open `#if`: whether its branch is Linux's alone
                for (number, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n").enumerated() {
                    let text = line.trimmingCharacters(in: .whitespaces)
                    if text.hasPrefix("#if") {
                        guards.append(["canImport(Glibc)", "os(Linux)", "__linux__"].contains { text.contains($0) } && !text.contains("!"))
                    } else if text.hasPrefix("#else") || text.hasPrefix("#elif") {
                        if !guards.isEmpty { guards[guards.count - 1] = false }
                    } else if text.hasPrefix("#endif") {
                        _ = guards.popLast()
                    } else if !text.hasPrefix("//"), let call = linuxOnly.first(where: { text.contains($0) }) {
                        #expect(guards.contains(true), "\(module)/\(file.lastPathComponent):\(number + 1): \(call) unguarded")
                    }
                }
            }
        }
        #expect(checked > 50)
    }

    /// The client for native shells builds on Apple platforms too: Foundation alone (and, on
    /// Linux, Glibc's sockets for the live stream, in a file that builds only there), none of the
    /// server's modules (docs/architecture.md, "Modules").
    @Test func theClientUsesFoundationOnly() async throws {
        let manifest = try await Self.manifestDependencies()
        #expect(manifest["CoordinatorClient"] == ["CoordinatorJSON"])
        #expect(manifest["CoordinatorJSON"] == [])
        #expect(try Self.imports(of: "CoordinatorJSON") == ["Foundation"])
        #expect(try Self.imports(of: "CoordinatorClient") == ["CoordinatorJSON", "Foundation", "FoundationNetworking", "Glibc"])
        let sockets = try String(
            contentsOf: Self.repository.appendingPathComponent("Sources/CoordinatorClient/Live/SocketStreamTransport.swift"),
            encoding: .utf8)
        #expect(sockets.hasPrefix("#if canImport(Glibc)\n"), "the socket transport builds on Linux only")
    }

    /// One JSON value, parser and writer, in `CoordinatorJSON`: the runtime holds navigation and
    /// imports Foundation (and the standard library's Synchronization) besides; the client shares the same type instead of a copy.
    @Test func oneJSONModuleThatTheRuntimeAndTheClientShare() async throws {
        let manifest = try await Self.manifestDependencies()
        #expect(manifest["Navigation"] == ["CoordinatorJSON"])
        // Synchronization is the standard library's (its `Mutex`).
        #expect(try Self.imports(of: "Navigation") == ["CoordinatorJSON", "Foundation", "Synchronization"])
        for module in try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("Sources").path)
        where module != "CoordinatorJSON" {
            let folder = Self.repository.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(!text.contains("enum JSONValue"), "\(module)/\(file.lastPathComponent) declares a JSON value of its own")
                #expect(!text.contains("struct JSONParser"), "\(module)/\(file.lastPathComponent) declares a JSON parser of its own")
            }
        }
    }
}
