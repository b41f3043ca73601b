import Foundation
import TestSupport
import Testing

/// The tests' waits end: a wait that would never be satisfied fails with what it waited for,
/// within its deadline, instead of hanging the run.
@Suite struct DeadlineTests {
    // The limits fail a wait that hangs; no wall-clock bound is asserted, since on two cores
    // loaded by other builds a 0.2 s wait was seen to return after 38 s.
    @Test(.timeLimit(.minutes(5))) func aConditionThatNeverHoldsFailsAtItsDeadline() async throws {
        let error = await #expect(throws: DeadlineExceeded.self) {
            try await waitUntil("a flag nobody raises", seconds: 0.2) { false }
        }
        #expect(error?.description == "waited 0.2 s for a flag nobody raises")
    }

    @Test func aContinuationNobodyResumesFailsAtItsDeadline() async throws {
        let error = await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline("an answer that never comes", seconds: 0.2) {
                // Ignores cancellation, like a wait on a lost continuation.
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            }
        }
        #expect(error?.description == "waited 0.2 s for an answer that never comes")
    }

    @Test func aTaskThatEndsInTimeGivesItsValue() async throws {
        let task = Task { 42 }
        #expect(try await task.value("forty-two") == 42)
    }

    @Test func aSemaphoreNobodySignalsFailsAtItsDeadline() async throws {
        let semaphore = DispatchSemaphore(value: 0)
        #expect(throws: DeadlineExceeded.self) { try wait(for: semaphore, "a signal", seconds: 0.1) }
    }

    /// `sleep 600` outlives the limit unless the deadline kills it.
    @Test(.timeLimit(.minutes(5))) func aChildThatDoesNotExitIsKilledAtItsDeadline() async throws {
        await #expect(throws: DeadlineExceeded.self) {
            try await TestHTTP.offPool { try ChildProcess.run("/bin/sleep", ["600"], seconds: 0.5) }
        }
    }

    /// A server that accepts and never answers: the read fails at the receive timeout.
    @Test func aServerThatNeverAnswersFailsTheRead() async throws {
        let listener = try SilentListener()
        await #expect(throws: TestClientError.self) {
            try await TestHTTP.offPool {
                try HTTPConnection(port: listener.port, receiveTimeoutSeconds: 1).request("GET", "/")
            }
        }
    }

    /// A machine frozen by its host (or starved) does not run its tests: a deadline is pushed
    /// back by such stalls, as the thread that takes a turn every 100 ms saw them.
    @Test func stallsAreGapsBetweenTurnsLongerThanABusyMachinesDelays() {
        let start = ContinuousClock.now
        var ledger = StallLedger(start: start)
        ledger.turn(at: start + .milliseconds(100))
        ledger.turn(at: start + .milliseconds(1_100))  // 0.9 s late: busy, not stalled
        #expect(ledger.total(at: start + .milliseconds(1_150)) == .zero)
        ledger.turn(at: start + .milliseconds(6_200))  // 5.1 s between turns: 5 s stalled
        #expect(ledger.total(at: start + .milliseconds(6_250)) == .seconds(5))
        // A stall still going on counts from the last turn.
        #expect(ledger.total(at: start + .milliseconds(9_200)) == .milliseconds(5_000 + 2_900))
        ledger.turn(at: start + .milliseconds(9_200))
        #expect(ledger.total(at: start + .milliseconds(9_250)) == .milliseconds(5_000 + 2_900))
    }

    /// Without stalls, a deadline passes when its time is up.
    @Test func aDeadlinePassesOnceItsTimeIsUp() async throws {
        let deadline = Deadline(seconds: 0.05)
        #expect(deadline.remaining <= .milliseconds(50))
        try await waitUntil("the deadline to pass") { deadline.hasPassed }
        #expect(deadline.remaining == .zero)
    }
}

/// A socket that listens on 127.0.0.1 and never answers (the kernel completes the handshakes).
private final class SilentListener: Sendable {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try FreePort.listen(backlog: 8)
    }

    deinit { close(descriptor) }
}
