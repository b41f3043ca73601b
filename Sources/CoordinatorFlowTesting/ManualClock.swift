import Sessions

/// The time an app under test goes by: it stands still until the test moves it, so a test about
/// time (a throttle's window, an expiry) never depends on how fast the machine is. It is the
/// session service's own clock, in manual mode; flows see it as `RequestInfo.now`.
public final class ManualClock: Sendable {
    let clock: ServiceClock

    /// A clock standing at `start` (seconds since 1970): by default a fixed moment, so that
    /// what a flow stores and shows of the time is the same on every run.
    public init(start: Int64 = 1_800_000_000) {
        clock = .manual(startingAt: start)
    }

    /// Seconds since 1970.
    public var now: Int64 { clock.now() }

    /// Moves the clock forward by `duration` (whole seconds; a negative duration does nothing).
    public func advance(by duration: Duration) {
        clock.advance(seconds: duration.components.seconds)
    }
}
