/// Where sessions and an app's models are kept, as the session service uses it: writes that
/// commit durably before they return, reads of committed data, a health probe.
///
/// Two backends implement it: `SQLiteDatabase` (one file, one writer with group commit) and
/// `PostgresDatabase` (a pool of libpq connections, one transaction per write).
package protocol Store: Sendable {
    /// The SQL the store speaks.
    var dialect: SQLDialect { get }

    /// True when other nodes may change the data too, so memory is only a cache that every
    /// request checks against the stored version.
    var isShared: Bool { get }

    /// Where the data is, for logs (never a password).
    var location: String { get }

    /// Runs `work` in a transaction and returns its result once that transaction is durable.
    /// If `work` throws, nothing it did is kept and the caller gets its error.
    nonisolated(nonsending) func write<T: Sendable>(
        _ work: @escaping @Sendable (any SQLConnection) throws -> T
    ) async throws -> T

    /// `write` for work that only stores the values it was given, with no effect outside the
    /// connection, so that running it again after a rollback does the same: the store may run it
    /// more than once before it commits (SQLite's writer then groups it without a savepoint).
    nonisolated(nonsending) func writeRerunnable<T: Sendable>(
        _ work: @escaping @Sendable (any SQLConnection) throws -> T
    ) async throws -> T

    /// Runs `work` on a connection that sees committed data.
    func read<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T

    /// Runs `work` where it can only read committed data: a write it tries fails, and nothing it
    /// does is kept (an app's declaration of what an event needs, which must not write).
    func readOnly<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T

    /// Runs `work` in a read transaction of its own, on a connection that sees committed data;
    /// any write it tries is refused and reported as `.needsWriter`. When it only read, `write`
    /// runs with its result as a write (see `write`), and the attempt completes with what that
    /// returned. Nil when the store has no read-only connection to offer (the caller then runs the
    /// work as a write). Lets work that turns out to only read stay off a single writer.
    func attemptReadOnly<T: Sendable, U: Sendable>(
        _ work: @escaping @Sendable (any SQLConnection) throws -> T,
        then write: @escaping @Sendable (T, any SQLConnection) throws -> U
    ) async throws -> ReadOnlyAttempt<U>?

    /// Why the store cannot serve now, or nil when it can.
    func healthProblem() async -> String?

    /// Store-specific figures for `/metrics`: name, type, help and value of each.
    func metrics() -> [StoreMetric]

    /// Finishes what is queued and closes every connection. Later writes fail.
    func close() async
}

extension Store {
    package nonisolated(nonsending) func writeRerunnable<T: Sendable>(
        _ work: @escaping @Sendable (any SQLConnection) throws -> T
    ) async throws -> T {
        try await write(work)
    }
}

/// One figure a store reports in `/metrics`.
package struct StoreMetric: Sendable {
    package let name: String
    package let type: String
    package let help: String
    package let value: Double

    package init(name: String, type: String, help: String, value: Double) {
        self.name = name
        self.type = type
        self.help = help
        self.value = value
    }
}

/// The store refused a write because it is closing or closed.
package struct StoreClosed: Error, CustomStringConvertible, Sendable {
    package init() {}
    package var description: String { "the database is closed" }
}
