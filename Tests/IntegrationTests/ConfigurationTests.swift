import Foundation
import TestSupport
import Testing

/// The configuration table (docs/operations.md), `serve --help` and the `COORDINATORD_*` variables agree:
/// each option is defined once and reached both ways.
@Suite struct ConfigurationTests {
    /// The flags of the configuration table (docs/operations.md), in order, with their default column.
    static func readmeTable() throws -> [(flag: String, defaultValue: String)] {
        let readme = try String(contentsOf: OpenAPITests.repository.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Configuration").dropFirst().first)
        return section.split(separator: "\n").compactMap { line -> (String, String)? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[1].hasPrefix("`--"), cells[1].hasSuffix("`") else { return nil }
            return (String(cells[1].dropFirst(3).dropLast()), cells[2])
        }
    }

    static func variable(_ flag: String) -> String {
        "COORDINATORD_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// Each flag of the table is an option of `serve` (the app's included) and each option of
    /// `serve --help` is in the table.
    @Test func theREADMETableListsExactlyTheOptionsOfServe() async throws {
        let help = try await OpenAPITests.run(ServerProcess.binaryPath, ["serve", "--help"])
        #expect(help.status == 0)
        let options = Set(
            help.output.split(separator: "\n").compactMap { line -> String? in
                let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
                guard let first = words.first(where: { $0.hasPrefix("--") }), line.hasPrefix("  ") else { return nil }
                return String(first.dropFirst(2).split(separator: "=").first ?? "")
            }
        ).subtracting(["help", "version"])
        let table = Set(try Self.readmeTable().map(\.flag))
        #expect(table.count >= 25)
        #expect(table.subtracting(options) == [], "in docs/operations.md, not in serve --help")
        #expect(options.subtracting(table) == [], "in serve --help, not in docs/operations.md")
    }

    /// The server starts with every variable of the table set (and nothing on its command line
    /// but `serve`), and those whose effect a client sees take effect.
    @Test func everyVariableOfTheREADMEConfiguresServe() async throws {
        let database = ServerProcess.temporaryDatabasePath()
        // Values for the defaults that are not a literal, and those whose effect the test watches.
        let chosen = [
            "host": "127.0.0.1", "port": "0", "database": database, "log-format": "json",
            "migrations": OpenAPITests.repository.appendingPathComponent("migrations").path, "threads": "2",
            "trusted-proxy": "127.0.0.1, ::1", "hash-concurrency": "1", "max-database-pages": "100000",
            "max-body-bytes": "100", "registrations-per-minute": "1", "node-name": "node-1",
            "operator-key-file": try OperatorAccessTests.keyFile(),
            // No registration completes here, so nothing is sent to it.
            "welcome-webhook": "http://127.0.0.1:9/welcome",
            // Spans to a port nothing listens on: the export's failures are logged, in JSON.
            "otlp-endpoint": "http://127.0.0.1:9",
        ]
        var environment: [String: String] = [:]
        // The operator key comes from one source at a time: the file's variable is set, not the key's.
        for (flag, defaultValue) in try Self.readmeTable() where flag != "operator-key" {
            let literal = defaultValue.hasPrefix("`") && defaultValue.hasSuffix("`") ? String(defaultValue.dropFirst().dropLast()) : nil
            let value: String = try #require(chosen[flag] ?? literal, "no value for --\(flag)")
            environment[Self.variable(flag)] = value
        }
        // The manual clock of the test hooks (a command-line-only flag): no refill during the test.
        let server = try await ServerProcess.start(
            commandLine: ["serve", "--test-hooks"], databasePath: database, environment: environment)
        #expect(FileManager.default.fileExists(atPath: database))

        // --max-body-bytes
        let large = try await TestHTTP.request(
            port: server.port, "POST", "/v1/sessions", headers: ["Content-Type": "application/json"],
            body: #"{"platform": "web", "padding": "\#(String(repeating: "x", count: 100))"}"#)
        #expect(large.status == 413)
        // --registrations-per-minute, the app's own setting: 1 a minute, 2 at once (10 and 20 by default).
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("signUp"))
        for attempt in 0..<2 {  // not an e-mail address: the screen stays, and the try counts
            try Journey.expect200(try await client.send("next", ["email": "nobody\(attempt)@example"]))
        }
        #expect(try await client.send("next", ["email": "third@example.com"]).status == 429)
        #expect(try await server.stop() == 0)
        // --log-format
        let log = try String(contentsOfFile: server.logPath, encoding: .utf8)
        let lines = log.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] })
    }

    /// A misspelt or retired variable is refused in one line that names it, not ignored: by
    /// `serve` and by `migrate`.
    @Test func anUnknownVariableIsRefusedByName() async throws {
        let database = ServerProcess.temporaryDatabasePath()
        // Each command ends even if the variable were ignored: `migrate` exits when done, and
        // this `serve` has a password setting it refuses after reading its variables.
        for command in [
            ["serve", "--port", "0", "--database", database, "--password-memory-mib", "8"],
            ["migrate", "--database", database],
        ] {
            let result = try await TestHTTP.offPool {
                try ChildProcess.run(
                    ServerProcess.binaryPath, command, environment: ["COORDINATORD_MAX_BODY_BYTE": "10"])
            }
            #expect(result.status != 0, "\(command[0])")
            #expect(result.output.contains("unknown environment variable COORDINATORD_MAX_BODY_BYTE"), "\(result.output)")
            #expect(result.output.split(separator: "\n").count == 1, "\(result.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
