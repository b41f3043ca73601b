import Foundation
import Synchronization

/// A test waited longer than its deadline: it fails saying what it waited for, instead of
/// hanging the run until CI gives up on it.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    public let description: String

    public init(_ what: String, seconds: Double) {
        description = "waited \(seconds) s for \(what)"
    }
}

/// How long a test waits for something that takes milliseconds when all is well: far beyond any
/// loaded machine's delay, far below a CI job's timeout. Time the machine did not run at all is
/// not counted (`Deadline`).
public let defaultDeadlineSeconds: Double = 60

/// Waits until `condition` holds, checking it every millisecond or so; throws `DeadlineExceeded`
/// naming `what` once `seconds` have passed without it (not counting the machine's stalls: `Deadline`).
public func waitUntil(
    _ what: @autoclosure () -> String, seconds: Double = defaultDeadlineSeconds, _ condition: () async throws -> Bool
) async throws {
    let deadline = Deadline(seconds: seconds)
    while try await !condition() {
        guard !deadline.hasPassed else {
            // The deadline may have passed while this task waited for a thread of the pool behind
            // the very work it waits for: that work gets its turn first, then one last check.
            await Task.yield()
            if try await condition() { return }
            throw DeadlineExceeded(what(), seconds: seconds)
        }
        // A pause between checks, not a wait for the condition: that is the loop.
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// The result of `body`, or `DeadlineExceeded` naming `what` once `seconds` have passed (not
/// counting the machine's stalls: `Deadline`). The body is then cancelled and left to end on its
/// own, so a body that ignores cancellation (stuck in a continuation nobody resumes) fails the
/// test rather than hanging it.
public func withDeadline<T: Sendable>(
    _ what: String, seconds: Double = defaultDeadlineSeconds, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let answer = FirstAnswer<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            answer.set(continuation)
            let work = Task {
                do {
                    answer.give(.success(try await body()))
                } catch {
                    answer.give(.failure(error))
                }
            }
            let timer = Task {
                let deadline = Deadline(seconds: seconds)
                while !deadline.hasPassed, !Task.isCancelled { try? await Task.sleep(for: deadline.remaining) }
                // Work queued on the pool before the timer woke gets its turn before it loses.
                await Task.yield()
                if answer.give(.failure(DeadlineExceeded(what, seconds: seconds))) { work.cancel() }
            }
            answer.onAnswer { timer.cancel() }
        }
    } onCancel: {
        answer.give(.failure(CancellationError()))
    }
}

/// Waits (blocking this thread) for `semaphore`, at most `seconds` (not counting the machine's
/// stalls: `Deadline`); throws `DeadlineExceeded` naming `what` past that. For threads that may
/// block: the writer's, a reader's queue.
public func wait(for semaphore: DispatchSemaphore, _ what: String, seconds: Double = defaultDeadlineSeconds) throws {
    let deadline = Deadline(seconds: seconds)
    while !deadline.hasPassed {
        if semaphore.wait(timeout: .now() + deadline.remaining / .seconds(1)) == .success { return }
    }
    throw DeadlineExceeded(what, seconds: seconds)
}

/// The first of several answers to one continuation: the work's result or the deadline.
private final class FirstAnswer<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var answered = false
        var onAnswer: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func set(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            if state.early == nil { state.continuation = continuation }
            return state.early
        }
        if let early { continuation.resume(with: early) }
    }

    /// Runs `action` once answered (now, if it already is).
    func onAnswer(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if !state.answered { state.onAnswer = action }
            return state.answered
        }
        if now { action() }
    }

    /// Answers with `result` unless another answer came first; true if this one counted.
    @discardableResult
    func give(_ result: Result<T, any Error>) -> Bool {
        let taken = state.withLock { state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?)? in
            guard !state.answered else { return nil }
            state.answered = true
            let taken = (state.continuation, state.onAnswer)
            if state.continuation == nil { state.early = result }
            (state.continuation, state.onAnswer) = (nil, nil)
            return taken
        }
        guard let (continuation, action) = taken else { return false }
        continuation?.resume(with: result)
        action?()
        return true
    }
}

extension Task where Success: Sendable {
    /// The task's value, or `DeadlineExceeded` naming `what` once `seconds` have passed.
    public func value(_ what: String, seconds: Double = defaultDeadlineSeconds) async throws -> Success {
        try await withDeadline(what, seconds: seconds) { try await self.value }
    }
}
