// The values an event's stages hand back when the session moved under them. Each stage returns
// one and the stage before it switches on it: `post` → `authenticatedPost` (starts over from the
// store, a few times) → `apply` (retires the resident copy) → `commit` → one attempt (whose write
// was rolled back). Nothing else steers the event: a refusal is thrown once, to be answered.

/// How applying an event to a resident session ended.
enum ApplyOutcome: Sendable {
    /// Applied: the answer.
    case answered(StoredAnswer)
    /// The resident copy was out of date (its stored version moved on, or it was retired while
    /// this request waited); it is retired. Load the session again and start over.
    case sessionMoved
}

/// How posting an event once ended.
enum PostOutcome: Sendable {
    /// The answer, applied now or replayed for its `Idempotency-Key`.
    case answered(StoredAnswer, replayed: Bool)
    /// Another event won the session first: post again.
    case sessionMoved

    /// What applying it made of it.
    init(_ applied: ApplyOutcome) {
        switch applied {
        case .answered(let answer): self = .answered(answer, replayed: false)
        case .sessionMoved: self = .sessionMoved
        }
    }
}

/// Why an event's write rolled back. Thrown inside the store's write (a throw is what rolls a
/// write back), and made a value at the edge of the attempt that ran it (`AttemptOutcome`).
enum WriteRefusal: Error, Sendable {
    /// The stored version is no longer the one the flow ran on.
    case versionMoved
    /// The run skipped the user check for the write to make, and the write did not find the user
    /// (or, where one statement checks both, the version moved), or the run failed: run it again
    /// with the check first.
    case userUnconfirmed
}

extension SessionService {
    /// How one attempt of an event's flow and write ended.
    enum AttemptOutcome: Sendable {
        case stored(FlowRun)
        case refused(WriteRefusal)
    }

    /// How an event's commit ended.
    enum CommitOutcome: Sendable {
        case applied(Applied)
        /// The stored version moved on: nothing was kept.
        case sessionMoved
    }
}
