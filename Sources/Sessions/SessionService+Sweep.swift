import Foundation

extension SessionService {
    /// Stores the expiry that reads moved in memory, deletes expired sessions and old
    /// idempotency answers, and drops expired sessions from memory.
    public func sweep() async {
        let now = Self.now()
        flushTouches(cache.all)
        let keysBefore = now - configuration.idempotencyRetentionSeconds
        do {
            let deleted = try await write { try SessionSQL.deleteExpired($0, now: now, keysBefore: keysBefore) }
            for session in cache.all where session.current.expiresAt < now && !session.lock.isBusy {
                cache.remove(session.id)
            }
            if deleted > 0 { logger.info("expired sessions deleted", metadata: ["count": "\(deleted)"]) }
        } catch {
            logger.error("sweep failed", metadata: ["error": "\(error)"])
        }
    }

    /// Sweeps every `interval` until the task is cancelled.
    public func startSweeping(every interval: Duration) -> Task<Void, Never> {
        Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                await sweep()
            }
        }
    }

    /// Writes the moved expiry of `sessions` (reads only touch memory), in one commit.
    func flushTouches(_ sessions: [ResidentSession]) {
        let touched = sessions.compactMap { session -> (String, Int64)? in
            let state = session.current
            guard state.touched else { return nil }
            session.update {
                $0.touched = false
                $0.storedExpiresAt = state.expiresAt
            }
            return (session.id, state.expiresAt)
        }
        guard !touched.isEmpty else { return }
        let now = Self.now()
        let writer = database.writer
        Task {
            _ = try? await writer.write { connection in
                for (id, expiresAt) in touched { try SessionSQL.touch(connection, id: id, now: now, expiresAt: expiresAt) }
            }
        }
    }
}
