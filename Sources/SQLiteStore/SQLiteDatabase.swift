import Foundation
import Store

/// The embedded store: the schema migrated, one writer with group commit, a pool of readers,
/// and the file locked against a second server process.
package final class SQLiteDatabase: Store {
    package let path: String
    package let writer: Writer
    package let readers: ReaderPool
    package let file: DatabaseFile
    package let checkpointer: Checkpointer

    /// Opens `path`, locks it for this process (throwing `DatabaseInUse` if another serves it),
    /// applies `migrations` (refusing a database from a newer build), and starts the writer and
    /// the readers.
    /// `checkpointPages` is the log's size, in pages, past which it is copied back into the file.
    /// With `gathersCommits`, a commit may wait a little for more writes (`Writer`).
    package init(
        path: String, migrations: [Migration], readerCount: Int = max(2, ProcessInfo.processInfo.activeProcessorCount),
        maxPageCount: Int? = nil, checkpointPages: Int = 1_000, gathersCommits: Bool = false
    ) throws {
        let connection = try SQLiteConnection(path: path)
        let file = try DatabaseFile(lockingExisting: path)
        try Migrator(migrations: migrations).migrate(connection)
        // Store bookkeeping like `schema_migrations`: the health probe writes here and rolls back.
        try connection.execute("CREATE TABLE IF NOT EXISTS health_probe (payload BLOB)")
        self.path = path
        self.file = file
        self.checkpointer = try Checkpointer(path: path, threshold: checkpointPages)
        self.writer = try Writer(
            path: path, file: file, maxPageCount: maxPageCount, checkpointer: checkpointer, gathers: gathersCommits)
        self.readers = try ReaderPool(path: path, count: readerCount)
    }

    package var dialect: SQLDialect { .sqlite }
    package var isShared: Bool { false }
    package var location: String { path }

    @discardableResult
    package nonisolated(nonsending) func write<T: Sendable>(
        _ work: @escaping @Sendable (any SQLConnection) throws -> T
    ) async throws -> T {
        try await writer.write(work)
    }

    package nonisolated(nonsending) func writeRerunnable<T: Sendable>(
        _ work: @escaping @Sendable (any SQLConnection) throws -> T
    ) async throws -> T {
        try await writer.write(rerunnable: true, work)
    }

    /// Reads committed data; refused once the file was deleted or replaced (checked after the read,
    /// so that nothing read from the deleted file, where a refused batch may have landed, is served).
    /// The readers' connections are opened read-only: `read` is read-only already.
    package func readOnly<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await read(work)
    }

    package func read<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        let file = self.file
        return try await readers.read { connection in
            let result = try work(connection)
            try file.checkStillInPlace()
            return result
        }
    }

    package func attemptReadOnly<T: Sendable, U: Sendable>(
        _ work: @escaping @Sendable (any SQLConnection) throws -> T,
        then write: @escaping @Sendable (T, any SQLConnection) throws -> U
    ) async throws -> ReadOnlyAttempt<U>? {
        // Handed between threads as `any Sendable`, as `Writer.write` does, and cast back here.
        let attempt = try await attemptReadOnly({ try work($0) }, then: { try write($0 as! T, $1) })
        switch attempt {
        case .completed(let result)?: return .completed(result as! U)
        case .needsWriter?: return .needsWriter
        case nil: return nil
        }
    }

    private func attemptReadOnly(
        _ work: @escaping @Sendable (any SQLConnection) throws -> any Sendable,
        then write: @escaping @Sendable (any Sendable, any SQLConnection) throws -> any Sendable
    ) async throws -> ReadOnlyAttempt<any Sendable>? {
        let writer = self.writer
        return try await withCheckedThrowingContinuation { continuation in
            readers.submit { connection in
                let attempt: ReadOnlyAttempt<any Sendable>?
                do {
                    attempt = try ReaderPool.attempt(work, on: connection)
                } catch {
                    return { continuation.resume(throwing: error) }
                }
                switch attempt {
                case .completed(let result)?:
                    // Handed from the reader's thread straight to the writer: no hop back in between.
                    return {
                        writer.enqueue({ try write(result, $0) }, then: { continuation.resume(with: $0.map { .completed($0) }) })
                    }
                case .needsWriter?: return { continuation.resume(returning: .needsWriter) }
                case nil: return { continuation.resume(returning: nil) }
                }
            }
        }
    }

    package func metrics() -> [StoreMetric] {
        let statistics = writer.statistics
        let bytes = [path, path + "-wal"].reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        return [
            StoreMetric(
                name: "coordinatord_commits_total", type: "counter", help: "Group commits of the SQLite writer.",
                value: Double(statistics.batches)),
            StoreMetric(
                name: "coordinatord_committed_writes_total", type: "counter",
                help: "Writes committed, each in its own savepoint.", value: Double(statistics.writes)),
            StoreMetric(
                name: "coordinatord_writer_queue_depth", type: "gauge", help: "Writes waiting for the writer.",
                value: Double(statistics.pending)),
            StoreMetric(
                name: "coordinatord_slow_commits_total", type: "counter",
                help: "Group commits that took over 100 ms (mostly the disk's sync); every write queued behind one waited as long.",
                value: Double(statistics.slowCommits)),
            StoreMetric(
                name: "coordinatord_longest_commit_seconds", type: "gauge",
                help: "The longest group commit since the server started.",
                value: statistics.longestCommit / .seconds(1)),
            StoreMetric(
                name: "coordinatord_wal_checkpoints_total", type: "counter",
                help: "Checkpoints that copied the SQLite log back into the database file, off the writer.",
                value: Double(checkpointer.current.checkpoints)),
            StoreMetric(
                name: "coordinatord_wal_checkpoint_failures_total", type: "counter",
                help: "Rounds of copying the SQLite log back that failed; after a failed sync the log grows until one succeeds.",
                value: Double(checkpointer.current.failedRounds)),
            StoreMetric(
                name: "coordinatord_wal_pages", type: "gauge",
                help: "Pages in the SQLite log after the last commit; it starts over once copied back and synced.",
                value: Double(checkpointer.logPagesAtLastCommit)),
            StoreMetric(
                name: "coordinatord_database_bytes", type: "gauge", help: "Bytes of the SQLite database file and its WAL.",
                value: Double(bytes)),
        ]
    }

    /// Flushes and stops the writer.
    /// Stops the writer and the checkpointer, then copies the whole log into the database file
    /// and empties it (a synced `TRUNCATE` checkpoint): after a clean stop the file alone is the
    /// database, so a backup that copies only it (or a tool that ignores `-wal`) misses nothing.
    /// The readers hold no read transaction by now, so nothing blocks it; should one, the log is
    /// left as it is, and SQLite replays it on the next open.
    package func close() async {
        await writer.close()
        await checkpointer.close()
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA synchronous=FULL")
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            // Nothing is lost: the log stays beside the file and is replayed when it is opened.
        }
        file.release()
    }

    /// Why the database cannot serve now, or nil when it can: a reader answers, the file is the
    /// one opened, its file system takes writes, and a write that needs new pages goes through
    /// the writer (it is rolled back, so probing leaves nothing behind).
    package func healthProblem() async -> String? {
        guard (try? await readers.read({ try $0.queryFirst("SELECT 1") { $0.int(0) } })) == 1 else {
            return "the database does not answer reads"
        }
        guard file.isStillInPlace else { return "the database file was deleted or replaced" }
        guard !file.fileSystemRefusesWrites else { return "the database's file system is read-only or full" }
        do {
            try await writer.write { connection in
                try connection.run("INSERT INTO health_probe (payload) VALUES (zeroblob(8192))")
                throw ProbeDone()
            }
        } catch is ProbeDone {
            return nil
        } catch {
            return "the database does not take writes: \(error)"
        }
        return nil
    }
}

/// Thrown by the health probe's write so that the writer rolls it back.
private struct ProbeDone: Error {}
