import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Child processes through `posix_spawn` and `waitpid`, not Foundation's `Process`: on Linux it
/// learns of a child's exit through Dispatch, and a child that exits while many test threads
/// wait was seen never to be reaped.
enum Spawn {
    /// Starts `path` with `arguments`: standard input from /dev/null, both output streams to the
    /// file `output`, no other descriptor inherited; the test's environment without its
    /// `COORDINATORD_*` variables (the server refuses ones it does not know), and `environment` over it.
    static func start(_ path: String, _ arguments: [String], output: String, environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeInheritedDescriptors(&actions)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables =
            ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("COORDINATORD_") }.merging(environment) { $1 }
            .map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { variables.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, variables)
        guard spawned == 0 else {
            throw LiveServerError("cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// The wait status of `pid` if it has ended (it is reaped then), nil while it runs.
    static func ended(_ pid: pid_t) throws -> Int32? {
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return status }
            if reaped == 0 { return nil }
            if errno != EINTR { throw LiveServerError("waitpid failed: errno \(errno)") }
        }
    }

    /// Kills `pid` and reaps it (SIGKILL ends it at once, so this blocks only briefly).
    static func kill(_ pid: pid_t) {
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    /// The exit code of a wait `status`: the code it exited with, or 128 + the signal that ended it.
    static func exitCode(_ status: Int32) -> Int32 {
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Makes the child close every descriptor above standard error, so that a server does not
    /// keep the tests' own sockets open. glibc's `posix_spawn_file_actions_addclosefrom_np` is
    /// not imported into Swift, so it is looked up by name.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return
        }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
}

/// A `LiveServer` could not start, answer or stop in time.
public struct LiveServerError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
