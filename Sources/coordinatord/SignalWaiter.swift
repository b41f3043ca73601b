import Foundation

/// Waits for the first of a set of signals, delivered through Dispatch rather than a C handler.
enum SignalWaiter {
    static func wait(for signals: [Int32]) async -> Int32 {
        await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            for number in signals {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { once.resume(number) }
                source.resume()
                once.keep(source)
            }
        }
    }
}

/// Resumes a continuation once, whichever signal comes first; keeps the sources alive.
private final class ResumeOnce: @unchecked Sendable {  // all state is guarded by `lock`
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Int32, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init(_ continuation: CheckedContinuation<Int32, Never>) { self.continuation = continuation }

    func keep(_ source: any DispatchSourceSignal) {
        lock.withLock { sources.append(source) }
    }

    func resume(_ number: Int32) {
        let pending = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(returning: number)
    }
}
