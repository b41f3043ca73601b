import Foundation

/// Child processes of the tests, through `posix_spawn` and `waitpid`.
///
/// Not Foundation's `Process`: on Linux it learns of a child's exit through Dispatch, and a
/// child that exits while many test threads wait was seen never to be reaped, so `waitUntilExit`
/// never returned. `run` blocks only the calling thread: call it off Swift's pool.
public enum ChildProcess {
    /// How long a child may run before it is killed and the test fails.
    public static let deadlineSeconds: Double = 300

    /// Runs `path` with `arguments`; returns its exit status and what it printed (both streams).
    /// With `environment`, the child gets the test's environment without its `COORDINATORD_*`
    /// variables, and `environment` over it. A child still running after `seconds` is killed,
    /// and `DeadlineExceeded` thrown.
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, seconds: Double = deadlineSeconds
    ) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        let pid = try spawn(path, arguments, output: outputPath, environment: environment)
        let status = try waitForExit(pid, seconds: seconds) {
            "\(path) \(arguments.joined(separator: " ")) to exit"
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return (exitCode(status), output)
    }

    /// Runs `path` with `arguments` in `directory`, like `run`, but returns its standard output
    /// and its errors apart: a program's warnings (psql's "could not change directory", say)
    /// are never read as its result.
    public static func runApart(
        _ path: String, _ arguments: [String], directory: String, seconds: Double = deadlineSeconds
    ) throws -> (status: Int32, output: String, errors: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        let (outputPath, errorsPath) = (base + ".out", base + ".err")
        defer {
            unlink(outputPath)
            unlink(errorsPath)
        }
        let pid = try spawn(path, arguments, output: outputPath, errors: errorsPath, environment: nil, directory: directory)
        let status = try waitForExit(pid, seconds: seconds) { "\(path) \(arguments.joined(separator: " ")) to exit" }
        let read = { (file: String) in (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
        return (exitCode(status), read(outputPath), read(errorsPath))
    }

    /// Reaps `pid`, checking every few milliseconds (this thread may block); kills it past `seconds`.
    /// Returns its raw wait status.
    public static func waitForExit(_ pid: pid_t, seconds: Double, _ what: () -> String) throws -> Int32 {
        let deadline = Deadline(seconds: seconds)
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return status }
            if reaped == -1 && errno != EINTR {
                throw TestClientError(description: "waitpid failed: errno \(errno)")
            }
            if deadline.hasPassed {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}  // SIGKILL ends it at once
                throw DeadlineExceeded(what(), seconds: seconds)
            }
            usleep(2_000)
        }
    }

    /// Starts `path` with its output discarded and returns its process id, for a child the test
    /// ends itself (`kill`, then `reap`).
    public static func start(_ path: String, _ arguments: [String]) throws -> pid_t {
        try spawn(path, arguments, output: "/dev/null", environment: nil)
    }

    /// Waits for `pid` (killed just before) to end, at most `seconds`.
    public static func reap(_ pid: pid_t, seconds: Double = defaultDeadlineSeconds) throws {
        _ = try waitForExit(pid, seconds: seconds) { "process \(pid) to end" }
    }

    /// The exit code a raw wait status stands for (128 + the signal for a child a signal ended),
    /// as a shell reports it. Swift does not import WIFEXITED and WEXITSTATUS.
    public static func exitCode(_ status: Int32) -> Int32 {
        status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Spawns `path` with standard input from /dev/null, its output written to `output` (emptied
    /// first) and its errors appended to `errors` (or written to `output` too), no other descriptor inherited, in `directory` when
    /// one is given.
    public static func spawn(
        _ path: String, _ arguments: [String], output: String, errors: String? = nil, environment: [String: String]?,
        directory: String? = nil
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let errors {
            posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        closeInheritedDescriptors(&actions)
        if let directory { try changeDirectory(&actions, to: directory) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned: Int32
        if let environment {
            var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("COORDINATORD_") }
                .merging(environment) { $1 }.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { variables.forEach { free($0) } }
            spawned = posix_spawn(&pid, path, &actions, nil, argv, &variables)
        } else {
            spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        }
        guard spawned == 0 else {
            throw TestClientError(description: "cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// Makes the child start in `directory`. glibc's `posix_spawn_file_actions_addchdir_np` is not
    /// imported into Swift either.
    private static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, to directory: String) throws {
        typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
            throw TestClientError(description: "this C library cannot start a child in another folder")
        }
        _ = unsafeBitCast(symbol, to: ChangeDirectory.self)(&actions, directory)
    }

    /// Makes the child close every descriptor above standard error. Otherwise a long-lived child
    /// (the postmaster, nginx) keeps the tests' client sockets open, and the servers never see
    /// those connections end. glibc's `posix_spawn_file_actions_addclosefrom_np` is not imported
    /// into Swift, so it is looked up by name.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return
        }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
}
