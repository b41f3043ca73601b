import DequeModule
import Store
import Synchronization

/// PostgreSQL's group commit across sessions, as the durable C baseline does it: the writes that
/// are one statement each (a navigation event's) wait, without a thread, for a drainer on a pooled
/// connection, which takes every write waiting and sends them as one transaction, `BEGIN`, one
/// statement each, `COMMIT`, in one round trip and one WAL flush, however many sessions they are
/// of; then the next ones, until none waits (each group pool work of its own, in its turn). Each
/// write is still applied or refused alone: its statement counts the rows it changed (`n`, not
/// `1 / n`), and one that changed none wrote nothing. The notices of the group's writes to other
/// nodes' streams follow `COMMIT` in the same round trip, as one statement that sends each only if
/// its write changed its rows.
///
/// Up to `maxDrainers` drainers run at once; one by default, as the C baseline has one writer:
/// measured with two (toggle load, 16 connections), groups were smaller (4 writes, not 6.7), the
/// process spent more CPU per event and served 12.4k events/s instead of 15.1–15.8k.
///
/// When a group fails without committing (a statement refused, a deadlock with another node),
/// nothing of it was kept: each write is answered `.alone`, and its caller sends it by itself,
/// where its error is its own. When the connection breaks before the answer to `COMMIT`, each
/// write is answered `.unconfirmed`: its own check tells, once the drainer's server process has
/// ended, whether it committed.
final class GroupCommit: Sendable {
    /// A write that may go with others: its counting statement, its values, and the notice its
    /// commit sends other nodes' streams.
    struct Write: Sendable {
        let sql: String
        let values: [SQLValue]
        let notice: PostgresLiveNotices.Pending?
    }

    /// What became of a write in a group.
    enum Outcome: Sendable {
        /// The group committed; true when the write's statement changed its rows.
        case committed(changed: Bool)
        /// The connection broke before the answer to `COMMIT`: the write's check tells, once
        /// `serverProcess` has ended.
        case unconfirmed(serverProcess: Int32, cause: PostgresError)
        /// Not committed in a group (one that failed and kept nothing, or no connection to send
        /// it on): to be sent alone.
        case alone
    }

    /// The most writes in one group: a group's results are read whole before anyone is answered.
    let maxWrites: Int
    let maxDrainers: Int
    /// Runs a drainer on a pooled connection (nil when there is none: the pool closed, or it
    /// cannot connect); what the drainer returns runs once that connection is free again.
    private let onConnection: @Sendable (@escaping Drainer) -> Void
    typealias Drainer = @Sendable (PostgresConnection?) -> @Sendable () -> Void

    private let state = Mutex(State())
    private struct State {
        var waiting: Deque<(write: Write, answer: CheckedContinuation<Outcome, Never>)> = []
        var drainers = 0
        /// Held by a test: no group starts until `release`.
        var held = false
        var groups = 0
        var groupedWrites = 0
    }

    init(
        maxWrites: Int = 128, maxDrainers: Int = 1,
        onConnection: @escaping @Sendable (@escaping Drainer) -> Void
    ) {
        self.maxWrites = max(1, maxWrites)
        self.maxDrainers = max(1, maxDrainers)
        self.onConnection = onConnection
    }

    /// Commits `write` in the next group, and says what became of it.
    func commit(_ write: Write) async -> Outcome {
        await withCheckedContinuation { answer in
            let startsDrainer = state.withLock { state in
                state.waiting.append((write, answer))
                guard state.drainers < maxDrainers, !state.held else { return false }
                state.drainers += 1
                return true
            }
            if startsDrainer { onConnection { self.drain(on: $0) } }
        }
    }

    /// Sends one group on `connection`; its writers are answered once the connection is free
    /// again, since a write sent alone next (behind a pooler, or after a failed group) wants one
    /// at once: answered earlier, it found none idle and opened another. Then, while writes wait,
    /// the drainer goes on as pool work of its own again: the pool's other work that waits for a
    /// connection (a reading flow's event, a sweep) runs in between, in its turn, however busy the
    /// group commit is (with a pool of one, too).
    private func drain(on connection: PostgresConnection?) -> @Sendable () -> Void {
        let group = state.withLock { state in
            guard !state.held, !state.waiting.isEmpty else {
                state.drainers -= 1
                return [(write: Write, answer: CheckedContinuation<Outcome, Never>)]()
            }
            let taken = Array(state.waiting.prefix(maxWrites))
            state.waiting.removeFirst(taken.count)
            (state.groups, state.groupedWrites) = (state.groups + 1, state.groupedWrites + taken.count)
            return taken
        }
        guard !group.isEmpty else { return {} }
        let outcomes: [Outcome]
        if let connection {
            let writes = group.map(\.write)
            let notices = PostgresLiveNotices.statement(sending: writes.compactMap(\.notice))
            outcomes = connection.commitGroup(writes.map { ($0.sql, $0.values) }, following: notices.map { [$0] } ?? [])
        } else {
            outcomes = Array(repeating: .alone, count: group.count)
        }
        return {
            for (waiting, outcome) in zip(group, outcomes) { waiting.answer.resume(returning: outcome) }
            // Another turn only for writes that wait: an empty turn took the connection just freed,
            // which a write answered `.alone` above wants at once (it then opened another).
            let more = self.state.withLock { state in
                guard state.held || state.waiting.isEmpty else { return true }
                state.drainers -= 1
                return false
            }
            if more { self.onConnection { self.drain(on: $0) } }
        }
    }

    /// Groups sent so far, and the writes they held (for `/metrics`).
    var statistics: (groups: Int, writes: Int) { state.withLock { ($0.groups, $0.groupedWrites) } }

    /// Writes waiting for a group now.
    var waitingWrites: Int { state.withLock { $0.waiting.count } }

    /// For tests: no group starts until `release`; the writes that arrive meanwhile wait, and then
    /// go as one group (up to `maxWrites`).
    func hold() { state.withLock { $0.held = true } }

    /// Ends `hold`: one drainer takes the writes that wait.
    func release() {
        let startsDrainer = state.withLock { state in
            state.held = false
            guard state.drainers < maxDrainers, !state.waiting.isEmpty else { return false }
            state.drainers += 1
            return true
        }
        if startsDrainer { onConnection { self.drain(on: $0) } }
    }
}
