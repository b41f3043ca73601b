import CSQLite
import CThreadName
import Foundation
import Synchronization

/// Copies the write-ahead log back into the database file on a thread of its own, and writes the
/// file out in slices, so that no commit waits for a checkpoint or queues behind its writeback.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1,000 pages: that
/// commit, and so every caller of its batch, waits for the pages to be written back and the
/// database file synced. Here the writer only reports the log's size after each commit (`watch`);
/// past `threshold` pages this thread copies the log back in rounds:
///
/// 1. a *guard* connection opens a read transaction. While it is open no write can start the log
///    over, since SQLite starts it over only when no reader holds a place in it;
/// 2. a `PASSIVE` checkpoint copies the log into the file, up to the guard's place, without a sync
///    (`synchronous=OFF` on this thread's connection only). It never blocks the writer;
/// 3. the file is synced. After a round that copied many pages, it is first written out a slice
///    at a time, waiting for each: one sync of the whole file would queue megabytes at the device
///    at once, and every commit's sync of the log waited behind them (the tail of the latency:
///    2–8 ms). After a short round, slicing would only add calls, and rounds would never get shorter;
/// 4. the guard closes, and only after a successful sync. So a page leaves the log only once its
///    copy in the file is durable, as with SQLite's own synced checkpoint.
///
/// Commits go on meanwhile, so a round under load rarely copies the whole log, and the log starts
/// over only once it is copied completely. Rounds repeat, each shorter than the last, until what
/// is left is a small tail (`threshold / 16` pages) or `maxRounds` have run; the writer copies
/// the rest between two batches (`finishOnWriter`), so that its next write starts the log over
/// and the log stays bounded.
package final class Checkpointer: @unchecked Sendable {  // every var is guarded by `condition`
    private let condition = NSCondition()
    private let threshold: Int
    /// The database file, opened to write it out and sync it.
    private let file: Int32
    /// Syncs the file: `Checkpointer.sync`, or a test's stand-in that holds or fails a round.
    private let sync: FileSync
    private var requested = false
    /// A round left a small tail of the log: the writer should copy it.
    private var unfinished = false
    private var closed = false
    private let done = Completion()
    private var statistics = CheckpointStatistics(checkpoints: 0, failedRounds: 0, logPages: 0, copiedPages: 0)
    /// The log's size in pages as of the writer's last commit.
    private let latestLogPages = Atomic<Int>(0)
    /// Rounds in a row before the writer copies what is left, however much.
    private static let maxRounds = 4

    /// Syncs a database file (`file`), first writing it out in slices when `inSlices`; false if it failed.
    package typealias FileSync = @Sendable (_ file: Int32, _ inSlices: Bool) -> Bool

    /// Opens its own connections to `path` and starts the thread; `threshold` is in log pages.
    package init(path: String, threshold: Int, sync: @escaping FileSync = Checkpointer.sync) throws {
        self.threshold = threshold
        self.sync = sync
        let copier = try SQLiteConnection(path: path)
        try copier.execute("PRAGMA synchronous=OFF")  // this thread syncs the file itself
        let guardian = try SQLiteConnection(path: path)
        file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot open \(path) to sync it") }
        let connections = CheckpointConnections(copier: copier, guardian: guardian)
        let thread = Thread { [self] in
            coordinatord_name_this_thread("sqlite-ckpt")
            run(connections)
            connections.close()
            _ = closeFile(file)
            done.signal()
        }
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

    /// Rounds done, and the log's pages and those copied back as of the last one.
    package var current: CheckpointStatistics {
        condition.lock()
        defer { condition.unlock() }
        return statistics
    }

    /// The log's size in pages after the writer's last commit: small again once it started over.
    package var logPagesAtLastCommit: Int { latestLogPages.load(ordering: .relaxed) }

    /// Stops the thread (after a round under way) and closes its connections.
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

    /// Run by the writer between batches: copies the small tail that the last round left, if it
    /// left one, with SQLite's own synced checkpoint, so that the next write starts the log over.
    func finishOnWriter(_ connection: SQLiteConnection) {
        condition.lock()
        let due = unfinished
        unfinished = false
        condition.unlock()
        guard due else { return }
        // Busy (a reader still uses the tail) or failed: the log keeps growing, and asks for a round.
        sqlite3_wal_checkpoint_v2(connection.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    private func logGrew(to pages: Int) {
        latestLogPages.store(pages, ordering: .relaxed)
        guard pages >= threshold else { return }
        condition.lock()
        defer { condition.unlock() }
        guard !unfinished else { return }  // the writer's turn
        requested = true
        condition.signal()
    }

    private func run(_ connections: CheckpointConnections) {
        var rounds = 0
        while true {
            condition.lock()
            while !requested && !closed { condition.wait() }
            requested = false
            let stop = closed
            condition.unlock()
            if stop { return }
            let copied: (logPages: Int, copiedPages: Int)
            switch copyBack(connections) {
            case .copied(let logPages, let copiedPages): copied = (logPages, copiedPages)
            case .busy: continue  // the writer is copying the tail; the next commit asks again
            case .failed:
                // The file gone, the disk failing: the log stays as it is, the next commit asks
                // again, and the writer's own checks report such states.
                condition.lock()
                statistics = statistics.failed()
                condition.unlock()
                continue
            }
            let tail = latestLogPages.load(ordering: .relaxed) - copied.copiedPages
            rounds += 1
            condition.lock()
            statistics = statistics.completed(logPages: copied.logPages, copiedPages: copied.copiedPages)
            if tail <= 0 {
                rounds = 0  // copied completely: the writer's next write starts the log over
            } else if tail <= threshold / 16 || rounds >= Self.maxRounds {
                rounds = 0
                unfinished = true
                requested = false  // the commits during this round asked for what the writer does now
            } else {
                requested = true  // another round, shorter than this one
            }
            condition.unlock()
        }
    }

    /// How a round ended.
    private enum Round {
        case copied(logPages: Int, copiedPages: Int)
        /// Another checkpoint (the writer's) was running: nothing was copied.
        case busy
        /// A step failed. After a failed sync the guard stays until a later round's sync
        /// succeeds, since pages copied back may not be durable.
        case failed
    }

    /// One round: guard, copy, write out and sync, unguard.
    private func copyBack(_ connections: CheckpointConnections) -> Round {
        let guardedBefore = connections.guarding
        if !guardedBefore {
            // Reading a page starts the guard's read transaction, at the log's current end.
            guard (try? connections.guardian.execute("BEGIN; SELECT count(*) FROM sqlite_schema")) != nil else {
                try? connections.guardian.execute("ROLLBACK")
                return .failed
            }
            connections.guarding = true
        }
        var logPages: Int32 = 0
        var copiedPages: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(
            connections.copier.handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logPages, &copiedPages)
        guard code == SQLITE_OK else {
            guard code & 0xff == SQLITE_BUSY else { return .failed }
            // Nothing copied: unless an earlier sync failed, the guard has nothing to keep.
            if !guardedBefore, (try? connections.guardian.execute("COMMIT")) != nil { connections.guarding = false }
            return .busy
        }
        // Pages copied by this round; fewer than the total after the log started over.
        let copiedNow = copiedPages >= connections.copiedBefore ? copiedPages - connections.copiedBefore : copiedPages
        guard sync(file, Int(copiedNow) >= threshold / 4) else { return .failed }
        connections.copiedBefore = copiedPages
        guard (try? connections.guardian.execute("COMMIT")) != nil else { return .failed }
        connections.guarding = false
        return .copied(logPages: Int(logPages), copiedPages: Int(copiedPages))
    }

    /// Syncs the file; first, `inSlices`, writes its dirty pages out a slice at a time, waiting for
    /// each. The slice grows with the file (1/64 of it), so that a large file takes few calls; the
    /// pages a round dirties (those committed since the last one) spread over the slices.
    package static func sync(_ file: Int32, inSlices: Bool) -> Bool {
        guard inSlices else { return syncData(file) }
        var status = stat()
        guard fstat(file, &status) == 0 else { return false }
        let size = Int64(status.st_size)
        let slice = max(1 << 20, size / 64)
        var offset: Int64 = 0
        while offset < size {
            guard coordinatord_write_out_range(file, offset, slice) == 0 else { return false }
            offset += slice
        }
        return syncData(file)
    }

    /// `fdatasync(2)` on Linux; `fsync(2)` where there is none (a flow test on a Mac builds this module).
    private static func syncData(_ file: Int32) -> Bool {
        #if canImport(Glibc)
        fdatasync(file) == 0
        #else
        fsync(file) == 0
        #endif
    }
}

/// `close(2)`, named apart from the checkpointer's own members.
private func closeFile(_ file: Int32) -> Int32 { close(file) }

/// The checkpointer's connections, used only by its thread once started.
private final class CheckpointConnections: @unchecked Sendable {  // handed to one thread, then only used there
    private(set) var copier: SQLiteConnection!
    private(set) var guardian: SQLiteConnection!
    /// The guard's read transaction is open.
    var guarding = false
    /// Pages of the log copied back and synced as of the last round.
    var copiedBefore: Int32 = 0

    init(copier: SQLiteConnection, guardian: SQLiteConnection) {
        self.copier = copier
        self.guardian = guardian
    }

    /// The last connection to close checkpoints the log and deletes it: with a sync, as SQLite
    /// does by default, not with the copier's `synchronous=OFF`.
    func close() {
        try? copier.execute("PRAGMA synchronous=FULL")
        guardian = nil
        copier = nil
    }
}

/// What the checkpointer has done.
package struct CheckpointStatistics: Sendable, Equatable {
    /// Rounds of copying back completed (copied, synced, and the guard closed).
    package let checkpoints: Int
    /// Rounds that failed (to copy or to sync). After a failed sync the log cannot start over
    /// until a later round syncs: a count that keeps growing means the log does too.
    package let failedRounds: Int
    /// Pages in the log at the last completed round.
    package let logPages: Int
    /// Of those, the pages copied back into the database file and synced.
    package let copiedPages: Int

    func completed(logPages: Int, copiedPages: Int) -> Self {
        Self(checkpoints: checkpoints + 1, failedRounds: failedRounds, logPages: logPages, copiedPages: copiedPages)
    }

    func failed() -> Self {
        Self(checkpoints: checkpoints, failedRounds: failedRounds + 1, logPages: logPages, copiedPages: copiedPages)
    }
}
