import Store

/// An answer kept for replay, as the `idempotency_keys` table holds it: sealed by the caller.
package struct AnswerRow: Sendable {
    package let session: String
    package let key: String
    package let requestHash: [UInt8]
    package let tokenHash: [UInt8]
    package let sealed: [UInt8]
    package let createdAt: Int64
    package let rotates: Bool
    package let version: Int

    package init(
        session: String, key: String, requestHash: [UInt8], tokenHash: [UInt8], sealed: [UInt8], createdAt: Int64,
        rotates: Bool, version: Int
    ) {
        self.session = session
        self.key = key
        self.requestHash = requestHash
        self.tokenHash = tokenHash
        self.sealed = sealed
        self.createdAt = createdAt
        self.rotates = rotates
        self.version = version
    }

    /// The columns of a stored answer, in the order of `values`.
    package static let columns =
        "session_id, key, request_hash, token_hash, sealed_answer, created_at, rotates, session_version"

    /// The values of `columns`.
    package var values: [SQLValue] {
        [
            .text(session), .text(key), .blob(requestHash), .blob(tokenHash), .blob(sealed), .integer(createdAt),
            .int(rotates ? 1 : 0), .int(version),
        ]
    }
}

/// An answer found for a key: what the caller checks before it opens it.
package struct FoundAnswer: Sendable {
    package let requestHash: [UInt8]
    package let tokenHash: [UInt8]
    package let sealed: [UInt8]
    package let rotates: Bool
}

extension SessionPersistence {
    /// Stores the answer, and keeps only the session's `keep` newest answers (by version), so a
    /// client cannot grow the table without bound by sending ever new keys.
    package func storeAnswer(_ answer: AnswerRow, keep: Int, on connection: any SQLConnection) throws {
        try connection.run(
            "INSERT INTO idempotency_keys (\(AnswerRow.columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", answer.values)
        try connection.run(
            """
            DELETE FROM idempotency_keys WHERE session_id = ?1 AND session_version <= (
                SELECT session_version FROM idempotency_keys WHERE session_id = ?1
                ORDER BY session_version DESC LIMIT 1 OFFSET ?2)
            """, [.text(answer.session), .int(max(1, keep))])
    }

    /// The answer stored for `key` of session `session`, if the session lives at `now`.
    package func findAnswer(session: String, key: String, now: Int64, on connection: any SQLConnection) throws -> FoundAnswer? {
        try connection.queryFirst(
            """
            SELECT k.request_hash, k.token_hash, k.sealed_answer, k.rotates
            FROM idempotency_keys k JOIN sessions s ON s.id = k.session_id
            WHERE k.session_id = ?1 AND k.key = ?2 AND s.expires_at >= ?3
            """,
            [.text(session), .text(key), .integer(now)]
        ) { FoundAnswer(requestHash: $0.blob(0), tokenHash: $0.blob(1), sealed: $0.blob(2), rotates: $0.int(3) == 1) }
    }

    /// Deletes up to `limit` stored answers created before `before`; returns how many.
    package func deleteAnswers(before: Int64, limit: Int, on connection: any SQLConnection) throws -> Int {
        try connection.run(
            """
            DELETE FROM idempotency_keys WHERE (session_id, key) IN
                (SELECT session_id, key FROM idempotency_keys WHERE created_at < ?1 LIMIT ?2)
            """, [.integer(before), .int(limit)])
    }
}
