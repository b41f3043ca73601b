import Foundation
import Synchronization

/// Time during which this process could not run at all: the virtual machine was frozen by its
/// host, or so starved that a thread waking every 100 ms did not run for more than a second.
///
/// On this kind of machine the kernel once logged "workqueue lockup … stuck for 46s" on both CPUs
/// during a test run, and nine tests whose waits spanned the stall failed their deadlines
/// together. A test's deadline is about the machine's speed, and a machine that does not run has
/// no speed: `Deadline` adds the stalls seen since it was set.
///
/// A thread of its own notes each stall once it runs again; one still going on (that thread has
/// not run yet since it began) counts from that thread's last turn.
enum MachineStalls {
    private static let ledger = Mutex(StallLedger(start: ContinuousClock.now))

    private static let watching: Void = {
        let thread = Thread {
            while true {
                Thread.sleep(forTimeInterval: StallLedger.interval / .seconds(1))
                let now = ContinuousClock.now
                ledger.withLock { $0.turn(at: now) }
            }
        }
        thread.name = "machine-stalls"
        thread.stackSize = 1 << 16
        thread.start()
    }()

    /// `recv` on a socket with a receive timeout, again after an interruption, and again after a
    /// timeout that a stall ran out: the byte count (negative on failure) and `errno`.
    static func receive(_ socket: Int32, into buffer: inout [UInt8]) -> (count: Int, error: Int32) {
        while true {
            let stalls = total()
            let count = recv(socket, &buffer, buffer.count, 0)
            let error = count < 0 ? errno : 0
            if error == EINTR { continue }
            if (error == EAGAIN || error == EWOULDBLOCK) && total() > stalls { continue }
            return (count, error)
        }
    }

    /// All stalls so far, the one going on included.
    static func total() -> Duration {
        _ = watching
        let now = ContinuousClock.now
        return ledger.withLock { $0.total(at: now) }
    }
}

/// The stalls seen by a thread that takes a turn every `interval`: each gap longer than that by
/// more than `threshold` (a busy machine's delays are shorter), the gap going on included.
public struct StallLedger: Sendable {
    public static let interval = Duration.milliseconds(100)
    public static let threshold = Duration.seconds(1)

    private var recorded: Duration = .zero
    private var lastTurn: ContinuousClock.Instant

    public init(start: ContinuousClock.Instant) {
        lastTurn = start
    }

    /// The watching thread ran at `now`.
    public mutating func turn(at now: ContinuousClock.Instant) {
        recorded += Self.stall(from: lastTurn, to: now)
        lastTurn = now
    }

    /// The stalls up to `now`.
    public func total(at now: ContinuousClock.Instant) -> Duration {
        recorded + Self.stall(from: lastTurn, to: now)
    }

    private static func stall(from turn: ContinuousClock.Instant, to now: ContinuousClock.Instant) -> Duration {
        let late = now - turn - interval
        return late > threshold ? late : .zero
    }
}

/// A moment `seconds` from now, pushed back by the machine's stalls meanwhile (`MachineStalls`).
public struct Deadline: Sendable {
    private let end: ContinuousClock.Instant
    private let stallsAtStart: Duration

    public init(seconds: Double) {
        stallsAtStart = MachineStalls.total()
        end = ContinuousClock.now + .seconds(seconds)
    }

    /// The time left until it passes (zero once it has).
    public var remaining: Duration {
        let end = self.end + (MachineStalls.total() - stallsAtStart)
        return max(.zero, end - ContinuousClock.now)
    }

    /// Whether it has passed; the stalls are looked up only once the time without them is up.
    public var hasPassed: Bool { ContinuousClock.now >= end && remaining == .zero }
}
