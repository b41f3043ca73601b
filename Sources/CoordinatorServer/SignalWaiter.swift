import Foundation

/// Catches signals through Dispatch rather than a C handler. Install it before announcing
/// readiness, so a signal that comes right after is caught, not fatal.
final class SignalWaiter: @unchecked Sendable {  // mutable state is guarded by `lock`
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []
    private var received: Int32?
    private var continuation: CheckedContinuation<Int32, Never>?

    init(_ signals: [Int32]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal caught (at once if one already was).
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let caught: Int32? = lock.withLock {
                if received == nil { self.continuation = continuation }
                return received
            }
            if let caught { continuation.resume(returning: caught) }
        }
    }

    private func deliver(_ number: Int32) {
        let waiting: CheckedContinuation<Int32, Never>? = lock.withLock {
            guard received == nil else { return nil }
            received = number
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: number)
    }
}
