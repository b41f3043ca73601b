/// The end of a wait that checks its condition every few milliseconds, pushed back by each gap
/// between two checks longer than a second: the machine did not run the test then (a virtual
/// machine frozen by its host, a test process starved), and a server's start-up is not to blame.
struct PollingDeadline {
    private var end: ContinuousClock.Instant
    private var lastCheck: ContinuousClock.Instant
    private static let stall = Duration.seconds(1)

    init(_ duration: Duration, now: ContinuousClock.Instant = .now) {
        lastCheck = now
        end = now + duration
    }

    /// Whether the deadline has passed at `now`; call it once per check of the condition.
    mutating func hasPassed(at now: ContinuousClock.Instant = .now) -> Bool {
        let gap = now - lastCheck
        if gap > Self.stall { end += gap }
        lastCheck = now
        return now >= end
    }
}
