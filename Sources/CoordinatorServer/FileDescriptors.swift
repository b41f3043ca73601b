#if canImport(Glibc)
import Glibc
#endif

/// The process's file-descriptor limit, which bounds connections and live streams together.
enum FileDescriptors {
    /// Raises the soft limit to the hard one (systemd and most shells start services at 1,024
    /// soft with a far higher hard limit); returns the soft limit now in force.
    @discardableResult
    static func raiseLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is all ones, which clamps to Int.max.
        return Int(clamping: limit.rlim_cur)
    }

    /// The live streams a node can hold beside `connections` connections under a limit of
    /// `descriptors`: each stream holds a descriptor, and the database, the listener and the
    /// log hold a few hundred at most.
    static func streamCapacity(asked: Int, connections: Int, descriptors: Int) -> Int {
        max(0, min(asked, descriptors - connections - 256))
    }
}
