import CSQLite
import Foundation

/// Copies the write-ahead log back into the database file on a thread of its own, so that no
/// commit waits for it.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1,000 pages: that
/// commit, and so every caller of its batch, waits for the pages to be written back and the
/// database file synced (milliseconds: at half load, a tenth of all events took over 4 ms).
/// Here the writer only reports the log's size after each commit (`watch`); past `threshold`
/// pages this thread runs a `PASSIVE` checkpoint on its own connection, which never blocks the
/// writer. The first write after a complete checkpoint starts the log over, so it stays bounded.
/// But under load commits come in while this thread copies, and the log starts over only if it
/// was copied completely when a write transaction begins: left alone it grew past 170 MB in ten
/// seconds of the benchmark. So after each background checkpoint the writer finishes the job
/// between two batches, after answering the first (`finishOnWriter`): a checkpoint of the few
/// pages committed since, one sync of the file, not the copy of the whole log.
package final class Checkpointer: @unchecked Sendable {  // every field is guarded by `condition`
    private let condition = NSCondition()
    private let threshold: Int
    private var requested = false
    /// A background checkpoint ran since the writer last finished one: the writer should copy
    /// what was committed after it.
    private var unfinished = false
    private var closed = false
    private let done = Completion()
    private var statistics = CheckpointStatistics(checkpoints: 0, logPages: 0, copiedPages: 0)

    /// Opens its own connection to `path` and starts the thread; `threshold` is in log pages.
    package init(path: String, threshold: Int) throws {
        self.threshold = threshold
        let connection = OwnedConnection(connection: try SQLiteConnection(path: path))
        let thread = Thread { [self] in
            run(connection.connection)
            connection.close()
            done.signal()
        }
        thread.name = "sqlite-checkpoint"
        thread.start()
    }

    /// Installs the hook through which `connection`'s commits report the log's size; replaces
    /// SQLite's automatic checkpoint on that connection.
    func watch(_ connection: SQLiteConnection) {
        sqlite3_wal_hook(
            connection.handle,
            { context, _, _, pages in
                Unmanaged<Checkpointer>.fromOpaque(context!).takeUnretainedValue().logGrew(to: Int(pages))
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Checkpoints done, and the log's pages and those copied back as of the last one.
    package var current: CheckpointStatistics {
        condition.lock()
        defer { condition.unlock() }
        return statistics
    }

    /// Stops the thread (after a checkpoint under way) and closes its connection.
    package func close() async {
        stop()
        await done.wait()
    }

    private func stop() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
    }

    /// Run by the writer between batches: copies what the last background checkpoint left behind,
    /// if it left anything, so that the next write starts the log over.
    func finishOnWriter(_ connection: SQLiteConnection) {
        condition.lock()
        let due = unfinished
        unfinished = false
        condition.unlock()
        guard due else { return }
        // Busy (the background thread started another one) or failed: that one finishes it.
        checkpoint(connection)
    }

    private func logGrew(to pages: Int) {
        guard pages >= threshold else { return }
        condition.lock()
        defer { condition.unlock() }
        // Until the writer has finished the last one, the log cannot start over: another
        // checkpoint now would only sync the file again.
        guard !unfinished else { return }
        requested = true
        condition.signal()
    }

    private func run(_ connection: SQLiteConnection) {
        while true {
            condition.lock()
            while !requested && !closed { condition.wait() }
            requested = false
            let stop = closed
            condition.unlock()
            if stop { return }
            // A failure (the file gone, the disk full) leaves the log as it is; the writer's own
            // checks report such states, and the next request tries again.
            guard checkpoint(connection) else { continue }
            // Even a complete one is followed by commits before the writer's next batch, and the
            // log starts over only if it is complete when a write transaction begins.
            condition.lock()
            unfinished = true
            requested = false  // commits during the run asked for it again: the writer's turn now
            condition.unlock()
        }
    }

    /// A `PASSIVE` checkpoint on `connection`, counted; false if it failed.
    @discardableResult
    private func checkpoint(_ connection: SQLiteConnection) -> Bool {
        var logPages: Int32 = 0
        var copiedPages: Int32 = 0
        guard
            sqlite3_wal_checkpoint_v2(connection.handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logPages, &copiedPages)
                == SQLITE_OK
        else { return false }
        condition.lock()
        statistics = CheckpointStatistics(
            checkpoints: statistics.checkpoints + 1, logPages: Int(logPages), copiedPages: Int(copiedPages))
        condition.unlock()
        return true
    }
}

/// What the checkpointer has done.
package struct CheckpointStatistics: Sendable, Equatable {
    /// Checkpoints run.
    package let checkpoints: Int
    /// Pages in the log at the last checkpoint.
    package let logPages: Int
    /// Of those, the pages copied back into the database file (all of them when none was in use).
    package let copiedPages: Int
}
