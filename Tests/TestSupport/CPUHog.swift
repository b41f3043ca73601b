import Foundation

/// A busy process per core, for as long as a test runs beside it: the machine as loaded as a
/// shared CI runner, so that a test that passes only on a quiet machine fails here.
public final class CPUHog: @unchecked Sendable {  // `pids` is written once in init, read in stop
    private var pids: [pid_t] = []

    /// Starts `count` busy processes (one per core by default).
    public init(count: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        for _ in 0..<max(1, count) {
            do {
                pids.append(try ChildProcess.start("/bin/sh", ["-c", "while :; do :; done"]))
            } catch {
                stop()
                throw error
            }
        }
    }

    /// Ends the busy processes.
    public func stop() {
        for pid in pids {
            kill(pid, SIGKILL)
            try? ChildProcess.reap(pid)
        }
        pids = []
    }

    deinit { stop() }
}
