import Synchronization

/// A one-shot signal that async code awaits without blocking a thread.
final class Completion: Sendable {
    private struct State {
        var signalled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Wakes every waiter, now and later.
    func signal() {
        let waiters = state.withLock { state in
            state.signalled = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `signal` has been called.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if !state.signalled { state.waiters.append(continuation) }
                return state.signalled
            }
            if done { continuation.resume() }
        }
    }
}
