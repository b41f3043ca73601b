import Foundation

extension SessionService {
    /// Stores the expiry that reads moved in memory, deletes expired sessions and old
    /// idempotency answers, and drops expired sessions from memory. The server calls it
    /// periodically (`startSweeping`); tests call it directly, with a manual clock.
    package func sweep() async {
        let now = now()
        await flushPendingTouches()
        await flushTouches(cache.all)
        let keysBefore = now - configuration.idempotencyRetentionSeconds
        do {
            let deleted = try await write { try SessionSQL.deleteExpired($0, now: now, keysBefore: keysBefore) }
            for session in cache.all where session.current.expiresAt < now && !session.isInUse {
                retire(session)
            }
            if deleted > 0 { logger.info("expired sessions deleted", metadata: ["count": "\(deleted)"]) }
        } catch {
            logger.error("sweep failed", metadata: ["error": "\(error)"])
        }
    }

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

    /// Writes the pending expiries of sessions that left memory, in one commit; a failed write
    /// is logged and they stay pending.
    func flushPendingTouches() async {
        let pending = pendingTouches.takeAll()
        guard !pending.isEmpty else { return }
        let now = now()
        do {
            try await write { connection in
                for (id, expiresAt) in pending { try SessionSQL.touch(connection, id: id, now: now, expiresAt: expiresAt) }
            }
        } catch {
            logger.error("storing session expiry failed", metadata: ["error": "\(error)", "sessions": "\(pending.count)"])
            pendingTouches.restore(pending)
        }
    }

    /// Writes the moved expiry of `sessions` (reads only touch memory), in one commit. A failed
    /// write is logged and the sessions stay marked, so the next sweep tries again.
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
        guard !touched.isEmpty else { return }
        let now = now()
        let rows = touched.map { ($0.0.id, $0.1) }
        do {
            try await write { connection in
                for (id, expiresAt) in rows { try SessionSQL.touch(connection, id: id, now: now, expiresAt: expiresAt) }
            }
            for (session, expiresAt) in touched {
                session.update { $0.storedExpiresAt = max($0.storedExpiresAt, expiresAt) }
            }
        } catch {
            logger.error("storing session expiry failed", metadata: ["error": "\(error)", "sessions": "\(rows.count)"])
            for (session, _) in touched { session.update { $0.touched = true } }
        }
    }
}
