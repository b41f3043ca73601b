@testable import CoordinatorTesting
import Testing

/// A start-up or stop wait of `LiveServer` passes its deadline after its time of checks, and a
/// stretch without checks (the machine not running the test) is added to it.
@Suite struct PollingDeadlineTests {
    @Test func aWaitCheckedSteadilyPassesOnTime() {
        let start = ContinuousClock.now
        var deadline = PollingDeadline(.seconds(10), now: start)
        var elapsed = Duration.zero
        while !deadline.hasPassed(at: start + elapsed) { elapsed += .milliseconds(2) }
        #expect(elapsed == .seconds(10))
    }

    @Test func aGapBetweenChecksPushesTheEndBack() {
        let start = ContinuousClock.now
        var deadline = PollingDeadline(.seconds(10), now: start)
        // A 5 s gap (frozen, not counted), a 9 s one, then checks half a second apart: the end
        // moves from 10 s to 15 s, then to 24 s, and stays there.
        let passed = [5_000, 14_000, 14_500, 15_000].map { deadline.hasPassed(at: start + .milliseconds($0)) }
        #expect(passed == [false, false, false, false])
        var now = start + .milliseconds(15_000)
        while !deadline.hasPassed(at: now) { now += .milliseconds(500) }
        #expect(now == start + .seconds(24))
    }
}
