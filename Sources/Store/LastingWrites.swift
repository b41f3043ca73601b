/// Writes a flow makes that must commit whatever becomes of its event: a failed password check
/// is counted even when the event is then refused (its state grew past a limit, a storage step
/// after the flow failed), or a refusal could tell a guesser the verdict while nothing counted.
///
/// `perform` runs the write on the event's connection at once, so it commits with the event when
/// the event commits, and later reads of the same event see it. The session service keeps the
/// writes of an event's last run; when the event is refused for good, it runs them again, on
/// their own, in a write of their own (after the event's own transaction or savepoint was rolled
/// back, so each counts once). A run that is followed by another run of the same event (after
/// slow work was prepared, or on the writer after a read-only attempt) is forgotten: the next
/// run does its writes again. An event that starts over because another node moved its session
/// on is run again as well, so it does not count twice either. (A session's start has no
/// refusal to outlast: its lasting writes commit with it or not at all.)
///
/// Why at once and again, rather than only after the event: the check that reads a count and
/// the write that adds to it stay in the event's one transaction (on SQLite's single writer, one
/// event at a time), so parallel guesses cannot all pass the check before any is counted. And why
/// the service and not the flow: only the service knows when an event is refused for good, after
/// every step that can still refuse it (the snapshot's byte limit, the store, a lost race).
///
/// Keep lasting writes small and self-contained (an upsert of a counter): they run a second
/// time on another connection, without the rest of the event.
///
/// `@unchecked Sendable`: `connection` is used only by `perform`, on the thread that runs the
/// event's flow; the session service reads `writes` only after that run has ended.
public final class LastingWrites: @unchecked Sendable {
    /// One lasting write, run on the connection it is given.
    public typealias Write = @Sendable (any SQLConnection) throws -> Void

    private let connection: any SQLConnection
    private var writes: [Write] = []

    /// Lasting writes of one run of an event, performed on `connection` (the event's).
    public init(connection: any SQLConnection) {
        self.connection = connection
    }

    /// Runs `write` on the event's connection now and keeps it, to run again on its own if the
    /// event is refused. A write that fails is not kept (its error fails the event).
    public func perform(_ write: @escaping Write) throws {
        try write(connection)
        writes.append(write)
    }

    /// What `perform` kept, in order.
    package var performed: [Write] { writes }
}
