import Foundation
import Metrics
import SessionStorage
import Store

extension SessionService {
    /// Stores the expiry that reads moved in memory, deletes expired sessions and old
    /// idempotency answers, and drops expired sessions from memory. The server calls it
    /// periodically (`startSweeping`); tests call it directly, with a manual clock.
    ///
    /// Every write is a batch of at most `sweepBatchSize` rows, each its own transaction, so
    /// events commit between them however many sessions expired together.
    package func sweep() async {
        let now = now()
        await flushPendingTouches()
        await flushTouches(cache.all)
        let (batch, keysBefore) = (sweepBatchSize, now - configuration.idempotencyRetentionSeconds)
        let (tables, listings) = (self.tables, journalListings)
        do {
            let deleted = try await inBatches { try tables.deleteExpiredSessions(now: now, limit: batch, on: $0) }
            for session in cache.all where session.current.expiresAt < now && !session.isInUse {
                retire(session)
            }
            _ = try await inBatches { try tables.deleteAnswers(before: keysBefore, limit: batch, on: $0) }
            let journalBefore = now - configuration.journal.retentionSeconds
            _ = try await inBatches {
                try tables.deleteOldJournalEntries(
                    before: journalBefore, limit: batch, willDeleteListings: listings.willDelete, on: $0)
            }
            // Finished effects are kept as long as the journal that shows their results.
            _ = try await inBatches { try tables.deleteFinishedEffects(before: journalBefore, limit: batch, on: $0) }
            // What other sessions were shown of deleted accounts (`Context.eraseMentions`).
            if try await read({ try tables.erasurePending(on: $0) }) {
                _ = try await inBatches { try JournalErasure.scanBatch(tables, $0, limit: batch) }
            }
            if let notices = tables.liveNotices {
                // Leases long ended (their nodes stopped streaming, or stopped): a lease's length
                // again as a margin for nodes whose clocks differ.
                let leasesBefore = now - LiveLease.seconds
                _ = try await inBatches { try notices.deleteEndedLeases(before: leasesBefore, limit: batch, on: $0) }
            }
            if deleted > 0 { logger.info("expired sessions deleted", metadata: ["count": "\(deleted)"]) }
        } catch {
            logger.error("sweep failed", metadata: ["error": "\(error)"])
        }
        await endExpiredStreams()
        await renewLiveLeases()
    }

    /// Rows per write of the sweep (at least one).
    private var sweepBatchSize: Int { max(1, configuration.sweepBatchSize) }

    /// Runs `deleteBatch` (which deletes at most `sweepBatchSize` rows) as one write after
    /// another until a batch comes back short; returns the rows deleted. Yields between batches.
    private func inBatches(_ deleteBatch: @escaping @Sendable (any SQLConnection) throws -> Int) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await write(deleteBatch)
            Self.sweepBatches.increment()
            Self.sweptRows.increment(by: deleted)
            total += deleted
            guard deleted >= sweepBatchSize else { return total }
            await Task.yield()
        }
    }

    // Made on first use (after the metrics system is set up), not per batch.
    private static let sweepBatches = Counter(label: "coordinatord_sweep_batches_total")
    private static let sweptRows = Counter(label: "coordinatord_sweep_deleted_rows_total")

    /// Writes every expiry that reads moved and that is not stored yet (on shutdown).
    package func flushExpiries() async {
        await flushPendingTouches()
        await flushTouches(cache.all)
    }

    /// Sweeps every `interval` until the task is cancelled.
    package func startSweeping(every interval: Duration) -> Task<Void, Never> {
        Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                await sweep()
            }
        }
    }

    /// Writes the pending expiries of sessions that left memory, a batch per commit; a failed
    /// write is logged and its expiries stay pending.
    func flushPendingTouches() async {
        let pending = Array(pendingTouches.takeAll())
        let (now, batch) = (now(), sweepBatchSize)
        for start in stride(from: 0, to: pending.count, by: batch) {
            let rows = Array(pending[start..<min(pending.count, start + batch)])
            do {
                try await write { [tables] connection in
                    for (id, expiresAt) in rows { try tables.touchSession(id: id, now: now, expiresAt: expiresAt, on: connection) }
                }
            } catch {
                logger.error("storing session expiry failed", metadata: ["error": "\(error)", "sessions": "\(rows.count)"])
                pendingTouches.restore(Dictionary(rows) { max($0, $1) })
            }
        }
    }

    /// Writes the moved expiry of `sessions` (reads only touch memory), a batch per commit. A
    /// failed write is logged and its sessions stay marked, so the next sweep tries again.
    func flushTouches(_ sessions: [ResidentSession]) async {
        let touched = sessions.compactMap { session -> (ResidentSession, Int64)? in
            var expiresAt: Int64?
            session.update { state in
                guard state.touched else { return }
                state.touched = false
                expiresAt = state.expiresAt
            }
            return expiresAt.map { (session, $0) }
        }
        let (now, batch) = (now(), sweepBatchSize)
        for start in stride(from: 0, to: touched.count, by: batch) {
            let chunk = touched[start..<min(touched.count, start + batch)]
            let rows = chunk.map { ($0.0.id, $0.1) }
            do {
                try await write { [tables] connection in
                    for (id, expiresAt) in rows { try tables.touchSession(id: id, now: now, expiresAt: expiresAt, on: connection) }
                }
                for (session, expiresAt) in chunk {
                    session.update { $0.storedExpiresAt = max($0.storedExpiresAt, expiresAt) }
                }
            } catch {
                logger.error("storing session expiry failed", metadata: ["error": "\(error)", "sessions": "\(rows.count)"])
                for (session, _) in chunk { session.update { $0.touched = true } }
            }
        }
    }
}
