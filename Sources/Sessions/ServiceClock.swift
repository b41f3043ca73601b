import Foundation
import Synchronization

/// The time the session service goes by, in whole seconds since 1970: session expiry, stored
/// answers' age, what flows see as `now`. The system clock in production; a manual clock,
/// which moves only when told to, in tests about time, so that none depends on how fast the
/// machine is.
package final class ServiceClock: Sendable {
    private let manual: Bool
    private let manualNow: Atomic<Int64>

    private init(manual: Bool, start: Int64) {
        self.manual = manual
        self.manualNow = Atomic(start)
    }

    /// The system's wall clock.
    package static let system = ServiceClock(manual: false, start: 0)

    /// A clock standing still at `start` until `advance` moves it.
    package static func manual(startingAt start: Int64 = Int64(Date().timeIntervalSince1970)) -> ServiceClock {
        ServiceClock(manual: true, start: start)
    }

    /// True for a manual clock.
    package var isManual: Bool { manual }

    /// Seconds since 1970.
    package func now() -> Int64 {
        manual ? manualNow.load(ordering: .acquiring) : Int64(Date().timeIntervalSince1970)
    }

    /// Moves a manual clock forward by `seconds`; does nothing to the system clock.
    package func advance(seconds: Int64) {
        guard manual else { return }
        manualNow.add(max(0, seconds), ordering: .acquiringAndReleasing)
    }
}
