import Foundation
import Synchronization

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
///
/// Spawned and reaped with `ChildProcess` (`posix_spawn`, `waitpid`), not Foundation's `Process`:
/// on Linux it learns of a child's exit when a socket the child inherited closes, and a server
/// another test spawned at the same moment could inherit that socket too; then the first
/// server's exit went unnoticed until the second one's, and `stop` waited past its deadline (CI).
public final class ServerProcess: @unchecked Sendable {  // `reaped` is behind a lock; the rest is set in init
    /// The server's process id.
    public let pid: pid_t
    public private(set) var port: UInt16 = 0
    /// The SQLite file's path, or the PostgreSQL database's URL.
    public let databasePath: String
    /// Where the server's log (its standard error) goes, to read when a test fails.
    public let logPath: String
    /// Where its standard output goes: the line saying where it listens.
    private let outputPath: String
    /// The raw wait status once the process has been reaped (a pid is reaped once only).
    private let reaped = Mutex<Int32?>(nil)

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
        // The server's log goes next to its SQLite database, or into a folder of its own.
        logPath =
            databasePath.hasPrefix("postgresql://")
            ? Self.temporaryDatabasePath().replacingOccurrences(of: ".sqlite", with: ".log")
            : databasePath + ".log"
        outputPath = logPath + ".out"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        // Only the test's own COORDINATORD_* variables: the server refuses ones it does not know.
        pid = try ChildProcess.spawn(
            executable, commandLine, output: outputPath, errors: logPath, environment: environment,
            directory: directory?.path)
        port = try readPort()
    }

    /// Whether the server still runs (reaping it if it has exited).
    public var isRunning: Bool { exitStatus() == nil }

    /// The server's raw wait status if it has exited, without waiting.
    private func exitStatus() -> Int32? {
        reaped.withLock { reaped in
            if reaped == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { reaped = status }
            }
            return reaped
        }
    }

    /// The port named by the line a server prints on its standard output when it listens; nil
    /// while there is no such line yet.
    public static func listeningPort(in output: String) throws -> UInt16? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains(" listening on http://") }) else {
            return nil
        }
        guard let port = line.split(separator: ":").last.flatMap({ UInt16($0) }) else {
            throw TestClientError(description: "no port in \(line)")
        }
        return port
    }

    /// Reads the port from the line the server prints when it listens, waiting at most `seconds`.
    private func readPort(seconds: Double = defaultDeadlineSeconds) throws -> UInt16 {
        let deadline = Deadline(seconds: seconds)
        while true {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            if let port = try Self.listeningPort(in: text) { return port }
            if let status = exitStatus() {
                throw TestClientError(
                    description: "server ended before listening (exit code \(ChildProcess.exitCode(status)), as a shell reports it): \(text)\(log)")
            }
            guard !deadline.hasPassed else {
                kill(pid, SIGKILL)
                throw DeadlineExceeded(
                    "the server to say where it listens; it wrote: \(text)\nits log (\(logPath)):\n\(log.suffix(3_000))"
                        + PostgresCluster.diagnosis(url: databasePath), seconds: seconds)
            }
            usleep(2_000)
        }
    }

    /// Everything the server has written so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

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
        Self.metric(name, in: try await TestHTTP.request(port: port, "GET", "/metrics").text)
    }

    /// The value of a metric without labels in `text`, a scrape of `/metrics`, or nil when it is absent.
    public static func metric(_ name: String, in text: String) -> Double? {
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Sends `signal` and waits (off Swift's pool) for the process to exit; returns its exit code
    /// (128 + the signal for a server a signal ended). A server still running after `seconds` is
    /// killed, and `DeadlineExceeded` thrown with the end of its log.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, seconds: Double = defaultDeadlineSeconds) async throws -> Int32 {
        try await TestHTTP.offPool {
            if self.isRunning { kill(self.pid, signal) }
            let deadline = Deadline(seconds: seconds)
            while true {
                if let status = self.exitStatus() { return ChildProcess.exitCode(status) }
                guard !deadline.hasPassed else {
                    kill(self.pid, SIGKILL)
                    let tail = self.log.split(separator: "\n").suffix(20).joined(separator: "\n")
                    throw DeadlineExceeded("the server to exit after signal \(signal); its log ends:\n\(tail)\n", seconds: seconds)
                }
                usleep(2_000)
            }
        }
    }

    /// Kills a server the test did not stop, and reaps it on a thread of its own (SIGKILL ends
    /// it at once; a deinit must not block a thread of Swift's pool).
    deinit {
        guard isRunning else { return }
        let pid = self.pid
        kill(pid, SIGKILL)
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
    }
}
