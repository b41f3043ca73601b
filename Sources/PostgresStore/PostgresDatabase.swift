import Foundation
import Store

/// The shared store: one PostgreSQL database that several nodes use at once.
///
/// Each write is one transaction on a pooled connection (PostgreSQL's own group commit shares
/// the WAL flush between concurrent commits); it is answered once `COMMIT` returns. Its `BEGIN`
/// travels with its first statement (see `PostgresConnection.transaction`). A write
/// that hit a serialization failure or a deadlock runs again (its work must be repeatable: it
/// is, for the session service, which applies events to a copy). Reads run outside any
/// transaction and see what is committed. When the connection breaks during `COMMIT`, the write is
/// answered as what became of it, which another connection asks (`txid_status`): a `503` that says
/// nothing changed is never given for a write that committed, and one that did not commit runs
/// once more. A write whose first statement ends it (`commitIfChanged` with a `CommitCheck`) is
/// one round trip: `BEGIN`, the statement and `COMMIT` go together, and its check tells what
/// became of it once the broken connection's server process has ended. Such writes of several
/// sessions go together in one transaction when the session service asks (`commitInGroup`).
package final class PostgresDatabase: Store {
    private let pool: PostgresPool
    /// Where one-statement writes of several sessions go together (`commitInGroup`).
    private let group: GroupCommit
    package let location: String

    /// Connects to `url` (waiting up to `waitSeconds` for a server that cannot be reached yet, see
    /// `PostgresConnection.connect`), applies `migrations` once even when several nodes start
    /// together, and keeps up to `poolSize` connections.
    package init(
        url: String, migrations: [Migration], poolSize: Int = 8, waitSeconds: Double = 0,
        waiting: (PostgresError) -> Void = { _ in }
    ) throws {
        let connection = try PostgresConnection.connect(url: url, waitSeconds: waitSeconds, waiting: waiting)
        try PostgresMigrator(migrations: migrations).migrate(connection)
        location = connection.location
        let pool = PostgresPool(url: url, size: poolSize)
        self.pool = pool
        group = GroupCommit(onConnection: { pool.run($0) })
    }

    package var dialect: SQLDialect { .postgresql }
    package var isShared: Bool { true }

    package nonisolated(nonsending) func write<T: Sendable>(
        _ work: @escaping @Sendable (any SQLConnection) throws -> T
    ) async throws -> T {
        try await write(attempts: 2, work)
    }

    /// `write`, with `attempts` tries of a write whose `COMMIT` was lost without committing, or
    /// whose connection broke before it (2, or 1 when it had a try already).
    private func write<T: Sendable>(attempts: Int, _ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws
        -> T
    {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await pool.withConnection { connection in try connection.transaction { try work(connection) } }
            } catch let unconfirmed as CommitUnconfirmed {
                // Answered only as what it was: done if it committed; if not, nothing was kept, and
                // the work runs once more, as when `BEGIN` failed.
                if try await committed(unconfirmed) { return unconfirmed.result as! T }  // what `work` returned
                guard attempt < attempts else { throw unconfirmed.cause }
                continue
            } catch let error as PostgresError where error.isRetryable && attempt < 4 {
                continue
            } catch let notBegun as TransactionNotBegun where attempt < attempts {
                // The connection broke before `COMMIT` was sent (the server restarted, say): once
                // more, on a fresh connection, once what the first try may have locked is free.
                _ = try? await ended(notBegun.serverProcess)
                continue
            }
        }
    }

    /// Commits a write that is one statement, `BEGIN` to `COMMIT`, with the writes of other
    /// sessions waiting at the same time (`GroupCommit`): `counting` is that statement with `n` (the
    /// rows it changed) as its first column, `sql` the same with `1 / n`, which is sent alone should
    /// the group fail; `check` tells whether it committed should the answer be lost. `notice` is
    /// sent once it committed, and only if it changed its rows. True when it changed them (durably).
    func commitInGroup(
        sql: String, counting: String, values: [SQLValue], check: CommitCheck, notice: PostgresLiveNotices.Pending?
    ) async throws -> Bool {
        let grouped = GroupCommit.Write(sql: counting, values: values, notice: notice)
        var attempts = 2
        switch await group.commit(grouped) {
        case .committed(let changed): return changed
        case .unconfirmed(let serverProcess, let cause):
            let lost = CommitUnconfirmed(lookup: .check(check), serverProcess: serverProcess, result: true, cause: cause)
            if try await committed(lost) { return true }
            attempts = 1  // the group was its first attempt
        case .alone: break
        }
        // Not committed: alone, as any write (a division by zero, nothing changed, rolls it back).
        struct Unchanged: Error {}
        do {
            return try await write(attempts: attempts) { connection in
                try notice?.send(on: connection)
                guard try connection.commitIfChanged(sql, values, checkedBy: check) else { throw Unchanged() }
                return true
            }
        } catch is Unchanged {
            return false
        }
    }

    /// Whether the transaction whose `COMMIT` went unanswered committed, asked on another
    /// connection once its server process has ended. Throws the lost `COMMIT`'s error when the
    /// server cannot say (then it is not known, and the caller hears of a storage failure).
    private func committed(_ unconfirmed: CommitUnconfirmed) async throws -> Bool {
        let cause = unconfirmed.cause
        do {
            // Behind a pooler the process is not known: only `txid_status` can tell, which also
            // says when the transaction is still in progress.
            let settled = try await ended(unconfirmed.serverProcess)
            switch unconfirmed.lookup {
            case .transaction(let transaction):
                let outcome = try await polled { () async throws -> Bool? in
                    let status = try await self.read {
                        try $0.queryFirst("SELECT txid_status(?1)", [.integer(transaction)]) { $0.optionalString(0) } ?? nil
                    }
                    switch status {
                    case "committed": return true
                    case "aborted": return false
                    case "in progress" where !settled: return nil
                    default: throw cause  // an id the server no longer knows
                    }
                }
                guard let outcome else { throw cause }
                return outcome
            case .check(let check):
                guard settled else { throw cause }
                switch try await read({ try $0.queryFirst(check.sql, check.values) { $0.isNull(0) ? nil : $0.int(0) } ?? nil }) {
                case 1: return true
                case 0: return false
                default: throw cause  // another write over it committed since
                }
            }
        } catch {
            throw cause
        }
    }

    /// Whether server process `id` has ended, after it was asked to (it lost its client anyway).
    /// Until it has, it may still run what it was sent, `COMMIT` included; one that never hears
    /// its client go (a partition) would also hold its transaction's rows until it ended. Waits up
    /// to about 5 s. False at once for 0, a process not known (behind a pooler).
    private func ended(_ id: Int32) async throws -> Bool {
        guard id != 0 else { return false }
        return try await polled { () async throws -> Bool? in
            // Only a process of this database and role: the id may have been given to another
            // process since (then it is waited for, and the answer is not known).
            let running = try await self.read {
                try $0.queryFirst(
                    """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE pid = ?1 AND datname = current_database() AND usename = current_user
                    """, [.integer(Int64(id))]
                ) { _ in true } ?? false
            }
            return running ? nil : true
        } ?? false
    }

    /// The first answer `attempt` gives (nil: not yet), asking every 10 ms for about 5 s; nil
    /// when it never answered. How a lost answer's fate is waited for.
    private func polled<T>(_ attempt: () async throws -> T?) async throws -> T? {
        for _ in 0..<500 {
            if let answer = try await attempt() { return answer }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// A read that failed because its connection broke runs once more on a fresh connection (a
    /// read changes nothing, so repeating it is safe).
    package func read<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        do {
            return try await pool.withConnection { try work($0) }
        } catch let error as PostgresError where error.isStorageFailure {
            return try await pool.withConnection { try work($0) }
        }
    }

    /// In a `READ ONLY` transaction, rolled back: a write fails, and nothing is kept.
    package func readOnly<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await pool.withConnection { connection in
            try connection.execute("BEGIN READ ONLY")
            defer { try? connection.execute("ROLLBACK") }
            return try work(connection)
        }
    }

    package func healthProblem() async -> String? {
        do {
            let one = try await read { try $0.queryFirst("SELECT 1") { $0.int(0) } }
            return one == 1 ? nil : "the database answered SELECT 1 with \(one.map(String.init) ?? "nothing")"
        } catch {
            return "the database does not answer: \(error)"
        }
    }

    /// For tests: the one-statement writes that arrive wait, and then go as one group once
    /// `releaseGroupCommits` is called (see `GroupCommit`).
    package func holdGroupCommits() { group.hold() }

    /// Ends `holdGroupCommits`.
    package func releaseGroupCommits() { group.release() }

    /// One-statement writes waiting for a group now.
    package var writesWaitingForGroup: Int { group.waitingWrites }

    package func metrics() -> [StoreMetric] {
        let statistics = pool.statistics
        let grouped = group.statistics
        return [
            StoreMetric(
                name: "coordinatord_database_group_commits_total", type: "counter",
                help: "Transactions the group commit sent, each the writes of one or more events (several sessions').",
                value: Double(grouped.groups)),
            StoreMetric(
                name: "coordinatord_database_grouped_writes_total", type: "counter",
                help: "Event writes the group commit sent (÷ its transactions: events per group).",
                value: Double(grouped.writes)),
            StoreMetric(
                name: "coordinatord_database_connections", type: "gauge", help: "PostgreSQL connections open.",
                value: Double(statistics.open)),
            StoreMetric(
                name: "coordinatord_database_connections_in_use", type: "gauge", help: "PostgreSQL connections in use.",
                value: Double(statistics.inUse)),
            StoreMetric(
                name: "coordinatord_database_waiters", type: "gauge",
                help: "Callers waiting for a PostgreSQL connection.", value: Double(statistics.waiting)),
            StoreMetric(
                name: "coordinatord_database_round_trips_total", type: "counter",
                help: "Round trips to PostgreSQL: statements, pipelines, BEGIN and COMMIT (preparations apart).",
                value: Double(PostgresConnection.roundTripsSent)),
            StoreMetric(
                name: "coordinatord_database_statements_prepared_total", type: "counter",
                help: "Statements prepared on PostgreSQL connections (one round trip each, once per connection).",
                value: Double(PostgresConnection.statementsPrepared)),
        ]
    }

    package func close() async {
        pool.close()
    }
}
