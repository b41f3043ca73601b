import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The app's real executable serving HTTP on a free port, with an SQLite database of its own in a
/// temporary folder: for tests of the app over HTTP, from any folder.
///
/// ```swift
/// let server = try await LiveServer.start(product: "greeter")
/// var session = try await server.newSession()
/// try await session.send(HelloScreen.self, .greet(.init(name: "Ada")))
/// try await server.stop()
/// ```
///
/// The executable is the one `swift build` (or `swift test`) built beside the tests. Every wait
/// has a deadline: a server that does not start, answer or stop in time fails the test, with
/// its log, instead of hanging it.
public final class LiveServer: Sendable {
    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// Its SQLite database.
    public let databasePath: String
    /// Where its output (the log) goes.
    public let logPath: String
    /// How long a request, the start and the stop may take. The start's and the stop's waits do
    /// not count a stretch of more than a second in which the test process did not run at all.
    public let deadline: Duration
    private let pid: pid_t
    private let folder: URL
    /// The exit code, once the process is reaped.
    private let exitCode = Mutex<Int32?>(nil)

    /// Starts the executable of `product` (an executable product of the package under test) with
    /// `serve --port 0 --database <a new file>` and `arguments`, and waits until it listens.
    /// `environment` is added to the test's (without its `COORDINATORD_*` variables).
    public static func start(
        product: String, arguments: [String] = [], environment: [String: String] = [:], deadline: Duration = .seconds(60)
    ) async throws -> LiveServer {
        try await start(
            executable: executable(named: product), arguments: arguments, environment: environment, deadline: deadline)
    }

    /// Starts the executable at `path` as `start(product:)` does.
    public static func start(
        executable path: String, arguments: [String] = [], environment: [String: String] = [:],
        deadline: Duration = .seconds(60)
    ) async throws -> LiveServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("app.sqlite").path
        let log = folder.appendingPathComponent("server.log").path
        let pid: pid_t
        let port: Int
        do {
            pid = try Spawn.start(
                path, ["serve", "--port", "0", "--database", database] + arguments, output: log, environment: environment)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        do {
            port = try await waitForPort(pid, log: log, deadline: deadline)
        } catch {
            Spawn.kill(pid)
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        return LiveServer(pid: pid, port: port, folder: folder, databasePath: database, logPath: log, deadline: deadline)
    }

    private init(pid: pid_t, port: Int, folder: URL, databasePath: String, logPath: String, deadline: Duration) {
        self.pid = pid
        self.port = port
        self.folder = folder
        self.databasePath = databasePath
        self.logPath = logPath
        self.deadline = deadline
    }

    /// What the server has written so far: its log, and the line that says where it listens.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Stops the server with SIGTERM and waits for it to exit; returns its exit code (0 for a clean
    /// stop). Past the deadline it is killed and `LiveServerError` thrown. Its folder is deleted.
    @discardableResult
    public func stop() async throws -> Int32 {
        defer { try? FileManager.default.removeItem(at: folder) }
        if let code = exitCode.withLock({ $0 }) { return code }
        kill(pid, SIGTERM)
        var end = PollingDeadline(deadline)
        while true {
            if let status = try Spawn.ended(pid) {
                exitCode.withLock { $0 = Spawn.exitCode(status) }
                return Spawn.exitCode(status)
            }
            guard !end.hasPassed() else {
                Spawn.kill(pid)
                exitCode.withLock { $0 = 128 + SIGKILL }
                throw LiveServerError("the server did not stop within \(deadline) of SIGTERM; its log:\n\(log)")
            }
            // A pause between checks of the condition, which is the loop's own.
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// A server the test did not stop is killed, and its folder deleted.
    deinit {
        if exitCode.withLock({ $0 }) == nil { Spawn.kill(pid) }
        try? FileManager.default.removeItem(at: folder)
    }
}
