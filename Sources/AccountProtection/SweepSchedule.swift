import Synchronization

/// When a throttle of this process last swept its expired rows: at most once a minute of the
/// flows' clock (and again at once if that clock moved back).
final class SweepSchedule: Sendable {
    private let last = Mutex<Int64?>(nil)

    /// True when a sweep is due at `now`; it is then counted as done.
    func isDue(now: Int64) -> Bool {
        last.withLock { last in
            if let previous = last, previous <= now, now - previous < 60 { return false }
            last = now
            return true
        }
    }
}
