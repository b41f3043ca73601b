import Foundation
import Navigation
import Secrets

/// This node's part in running effects: the app's handlers, the name its leases go under, and
/// the signal that wakes the runner when a commit stored effects.
final class EffectRunner: Sendable {
    let handlers: EffectHandlers
    /// Unique to this process: a restarted node does not take its dead self's leases for its own.
    let owner = "node-" + Tokens.random(bytes: 8)
    private let signal: AsyncStream<Void>.Continuation
    let wakes: AsyncStream<Void>

    init(handlers: EffectHandlers) {
        self.handlers = handlers
        // One pending wake is enough: the pass it starts finds every effect due.
        (wakes, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks the runner for a pass (a commit stored effects).
    func wake() { signal.yield() }

    /// Ends the runner's waits (at shutdown).
    func stop() { signal.finish() }
}

/// The delivery of an effect's result lost its lease: another node took the effect over (this
/// one was thought dead) or finished it. The delivery is rolled back; the other node's stands.
struct EffectTakenOver: Error {}
