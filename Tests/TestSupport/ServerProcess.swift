import Foundation

/// Which store a test's server runs on.
public enum Backend: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite, postgresql

    /// A new, empty database: an SQLite file path, or a database's URL in the shared PostgreSQL
    /// cluster (started on first use, off Swift's pool like every child process here).
    public func newDatabase() async throws -> String {
        switch self {
        case .sqlite: ServerProcess.temporaryDatabasePath()
        case .postgresql: try await TestHTTP.offPool { try PostgresCluster.shared.createDatabase() }
        }
    }

    public var description: String { rawValue }
}

/// The real `coordinatord` binary, started on a free port with its own database: an SQLite
/// file, or a PostgreSQL database (a URL) that several servers may share.
///
/// Starting and stopping wait for the child on a thread of their own (`TestHTTP.offPool`):
/// every test target runs in one process, and a blocked thread of Swift's pool (two on two
/// cores) would stall the in-process servers of other tests.
public final class ServerProcess: @unchecked Sendable {  // mutated only by the test that owns it
    public let process = Process()
    public private(set) var port: UInt16 = 0
    /// The SQLite file's path, or the PostgreSQL database's URL.
    public let databasePath: String
    /// Where the server's log goes, to read when a test fails.
    public let logPath: String
    private let output = Pipe()

    /// The built binary next to the test bundle (`.build/debug/coordinatord`).
    public static var binaryPath: String {
        let bundle = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
        var folder = bundle.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("coordinatord")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            folder = folder.deletingLastPathComponent()
        }
        return "coordinatord"
    }

    /// A fresh temporary folder for one test's database.
    public static func temporaryDatabasePath() -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordinatord-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("coordinatord.sqlite").path
    }

    /// Starts a server on a new database of `backend`.
    public static func start(
        backend: Backend, arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        try await start(databasePath: await backend.newDatabase(), arguments: arguments, environment: environment)
    }

    /// Starts the server and waits (off Swift's pool) until it reports its port.
    public static func start(
        databasePath: String? = nil, arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        let databasePath = databasePath ?? Self.temporaryDatabasePath()
        return try await start(
            commandLine: ["serve", "--port", "0", "--database", databasePath, "--log-level", "warning"] + arguments,
            databasePath: databasePath, environment: environment)
    }

    /// Starts `executable` (this repository's `coordinatord` by default) with exactly `commandLine`,
    /// in `directory`, and waits until it reports its port. `databasePath` is the database the
    /// command line (or `environment`) names, as an absolute path; the log goes beside it.
    public static func start(
        executable: String = binaryPath, commandLine: [String], databasePath: String,
        environment: [String: String] = [:], directory: URL? = nil
    ) async throws -> ServerProcess {
        try await TestHTTP.offPool {
            try ServerProcess(
                executable: executable, commandLine: commandLine, databasePath: databasePath, environment: environment,
                directory: directory)
        }
    }

    private init(
        executable: String, commandLine: [String], databasePath: String, environment: [String: String], directory: URL?
    ) throws {
        self.databasePath = databasePath
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = commandLine
        if let directory { process.currentDirectoryURL = directory }
        // Only the test's own COORDINATORD_* variables: the server refuses ones it does not know.
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("COORDINATORD_") }
        env.merge(environment) { $1 }
        process.environment = env
        process.standardOutput = output
        // The server's log goes next to its SQLite database, or into a folder of its own.
        logPath =
            self.databasePath.hasPrefix("postgresql://")
            ? Self.temporaryDatabasePath().replacingOccurrences(of: ".sqlite", with: ".log")
            : self.databasePath + ".log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: logPath)
        try process.run()
        port = try readPort()
    }

    /// Reads the port from the server's first line, waiting at most `seconds` for it.
    private func readPort(seconds: Double = defaultDeadlineSeconds) throws -> UInt16 {
        var text = ""
        let handle = output.fileHandleForReading
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !text.contains("\n") {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw DeadlineExceeded("the server to say where it listens (log: \(logPath)); it wrote: \(text)", seconds: seconds)
            }
            var ready = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            // A tenth of a second at a time: a child another test spawns at the same moment may
            // inherit this pipe and hold it open, so a server that exited is also noticed by its exit.
            let polled = poll(&ready, 1, Int32(min(100, left.components.seconds * 1000 + 1)))
            if polled < 0 && errno == EINTR { continue }
            guard polled > 0 else {
                if !process.isRunning { throw exitedBeforeListening(text) }
                continue
            }
            let data = handle.availableData
            if data.isEmpty {
                throw exitedBeforeListening(text)
            }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first(where: { $0.contains("listening on") }),
            let port = line.split(separator: ":").last.flatMap({ UInt16($0) })
        else { throw TestClientError(description: "no port in \(text)") }
        return port
    }

    private func exitedBeforeListening(_ output: String) -> TestClientError {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return TestClientError(description: "server exited before listening: \(output)\(log)")
    }

    /// Moves the server's clock forward (it must run with `--test-hooks`, whose clock stands still).
    public func advanceClock(seconds: Int) async throws {
        let response = try await TestHTTP.request(
            port: port, "POST", "/test/clock", headers: ["Content-Type": "application/json"],
            body: #"{"advanceSeconds":\#(seconds)}"#)
        guard response.status == 200 else { throw TestClientError(description: "clock: \(response.status)") }
    }

    /// Runs the server's sweep now (with `--test-hooks`).
    public func sweep() async throws {
        let response = try await TestHTTP.request(port: port, "POST", "/test/sweep")
        guard response.status == 204 else { throw TestClientError(description: "sweep: \(response.status)") }
    }

    /// Holds (`true`) or releases the server's password pool (with `--test-hooks`).
    public func pausePasswordPool(_ paused: Bool) async throws {
        let response = try await TestHTTP.request(
            port: port, "POST", paused ? "/test/password-pool/pause" : "/test/password-pool/resume")
        guard response.status == 204 else { throw TestClientError(description: "password pool: \(response.status)") }
    }

    /// The value of a metric without labels in `/metrics`, or nil when it is absent.
    public func metric(_ name: String) async throws -> Double? {
        let text = try await TestHTTP.request(port: port, "GET", "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Sends `signal` and waits (off Swift's pool) for the process to exit; returns its exit status.
    /// A server still running after `seconds` is killed, and `DeadlineExceeded` thrown.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, seconds: Double = defaultDeadlineSeconds) async throws -> Int32 {
        let process = self.process
        return try await TestHTTP.offPool {
            if process.isRunning { kill(process.processIdentifier, signal) }
            let deadline = ContinuousClock.now + .seconds(seconds)
            // `waitUntilExit` has no deadline; this is its loop with one (Foundation reaps the child).
            while process.isRunning {
                guard ContinuousClock.now < deadline else {
                    kill(process.processIdentifier, SIGKILL)
                    throw DeadlineExceeded("the server to exit after signal \(signal)", seconds: seconds)
                }
                usleep(2_000)
            }
            return process.terminationStatus
        }
    }

    /// Kills a server the test did not stop, without waiting: a deinit runs on a thread of
    /// Swift's pool, and on Linux Foundation learns of the exit through a thread of that same
    /// pool, so waiting here could wait for ever. Foundation reaps the process when it exits.
    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
