/// Slow or asynchronous work a flow needs (an Argon2id hash, a call to the app's own service),
/// done before the event commits, never inside the commit.
///
/// A coordinator runs inside the commit (on SQLite, on a read-only connection and then, if it
/// writes, on the store's writer, which commits many sessions' events together): it must only do
/// fast, synchronous work. When it needs the result of slow work it asks
/// `context.prepared(key) { … }`. The first time, the result is missing: the call throws
/// `PreparationNeeded`, the event is rolled back, the session service runs the work outside the
/// writer, and the event runs again from the start with the result prepared. So:
/// - everything the flow does before the result is available may run twice (reads, checks);
///   only the last run's model mutations and navigation are committed;
/// - the work itself runs once per event and key; it must not mutate the app's store (what it
///   writes would not roll back with the event), and its result must be `Sendable`.
///
/// A coordinator that asks for the work in `Coordinator.prepare(for:_:)` as well has it done
/// before the flow's first run, which then runs once.
public struct Preparations: Sendable {
    private var results: [String: any Sendable] = [:]

    /// Nothing prepared yet.
    public init() {}

    /// The prepared result for `key`, or `PreparationNeeded` carrying `work` to run first.
    public func result<T: Sendable>(_ key: String, _ work: @escaping @Sendable () async throws -> T) throws -> T {
        if let result = results[key] as? T { return result }
        throw PreparationNeeded(key: key, work: { try await work() })
    }

    /// Runs the work `needed` asks for and keeps its result for the event's next run.
    public mutating func perform(_ needed: PreparationNeeded) async throws {
        results[needed.key] = try await needed.work()
    }
}

/// Thrown inside the commit when a flow needs work that is not prepared yet (see `Preparations`).
public struct PreparationNeeded: Error, Sendable {
    /// The key the flow asked for.
    public let key: String
    let work: @Sendable () async throws -> any Sendable
}

extension Context {
    /// The result of slow `work` for this event, prepared outside the commit (see `Preparations`).
    /// The session service provides the preparations; elsewhere (a unit test) the work is needed.
    public func prepared<T: Sendable>(_ key: String, _ work: @escaping @Sendable () async throws -> T) throws -> T {
        try (environment[Preparations.self] ?? Preparations()).result(key, work)
    }
}
