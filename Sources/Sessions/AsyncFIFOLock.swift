import DequeModule
import Synchronization

/// A lock for async code that admits waiters in arrival order, so one session's events
/// apply one at a time in the order they arrived, without blocking a thread while waiting.
final class AsyncFIFOLock: Sendable {
    private struct State {
        var locked = false
        var waiters: Deque<CheckedContinuation<Void, Never>> = []
    }

    private let state = Mutex(State())

    nonisolated(nonsending) func lock() async {
        if tryLock() { return }  // free: taken without suspending
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state -> Bool in
                if state.locked {
                    state.waiters.append(continuation)
                    return false
                }
                state.locked = true
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    private func tryLock() -> Bool {
        state.withLock { state in
            if state.locked { return false }
            state.locked = true
            return true
        }
    }

    /// Hands the lock to the next waiter, or frees it.
    func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let next = state.waiters.popFirst() else {
                state.locked = false
                return nil
            }
            return next
        }
        next?.resume()
    }

    /// Runs `body` holding the lock.
    nonisolated(nonsending) func withLock<T>(_ body: nonisolated(nonsending) () async throws -> T) async rethrows -> T {
        await lock()
        defer { unlock() }
        return try await body()
    }

    /// Callers waiting for the lock now (for tests).
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// True while held or awaited; such a session must stay resident.
    var isBusy: Bool { state.withLock { $0.locked || !$0.waiters.isEmpty } }
}
