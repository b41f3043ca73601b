import Foundation

/// Child processes of the tests, through `posix_spawn` and `waitpid`.
///
/// Not Foundation's `Process`: on Linux it learns of a child's exit through Dispatch, and a
/// child that exits while many test threads wait was seen never to be reaped, so `waitUntilExit`
/// never returned. `run` and `stop` block only the calling thread: call them off Swift's pool.
public enum ChildProcess {
    /// Runs `path` with `arguments`; returns its exit status and what it printed (both streams).
    public static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        let pid = try spawn(path, arguments, output: outputPath, flags: O_TRUNC, ownSession: false)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output)
    }

    /// Starts `path` in a session of its own (signals it sends its group never reach the tests),
    /// its output appended to `logPath`; returns its pid. Stop it with `stop`.
    public static func start(_ path: String, _ arguments: [String], logPath: String) throws -> pid_t {
        try spawn(path, arguments, output: logPath, flags: O_APPEND, ownSession: true)
    }

    /// Spawns `path` with standard input from /dev/null, both output streams to `output` (opened
    /// with `flags`), no other descriptor inherited.
    private static func spawn(
        _ path: String, _ arguments: [String], output: String, flags: Int32, ownSession: Bool
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | flags, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if ownSession { posix_spawnattr_setflags(&attributes, 0x80) }  // POSIX_SPAWN_SETSID (glibc), not imported
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw TestClientError(description: "cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// Sends `signal` to a child that `start` started and waits for it to exit.
    public static func stop(_ pid: pid_t, signal: Int32 = SIGTERM) {
        kill(pid, signal)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
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
