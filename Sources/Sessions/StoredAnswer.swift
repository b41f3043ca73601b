import Store
import Secrets

/// The first answer to an event posted with an `Idempotency-Key`, kept for replay.
///
/// It is sealed with a key derived from the bearer token of the request that produced it:
/// the answer may carry a newly rotated token, and the server keeps no token in the clear.
/// Only a client holding that request's token can have it replayed.
package struct StoredAnswer: Sendable {
    package let version: Int
    package let body: [UInt8]

    static func sealingKey(token: String) -> [UInt8] {
        SecretBox.key(from: token, purpose: "idempotent-answer")
    }

    /// The columns of a stored answer, in the order of `values(...)`.
    static let columns = "session_id, key, request_hash, token_hash, sealed_answer, created_at, rotates, session_version"

    /// The values of `columns` for this answer, sealed for `token`.
    func values(session: String, key: String, requestHash: [UInt8], token: String, rotates: Bool, now: Int64)
        -> [SQLValue]
    {
        var plaintext = withUnsafeBytes(of: Int64(version).bigEndian, Array.init)
        plaintext += body
        return [
            .text(session), .text(key), .blob(requestHash), .blob(Tokens.sha256(token)),
            .blob(SecretBox.seal(plaintext, key: Self.sealingKey(token: token))), .integer(now), .int(rotates ? 1 : 0),
            .int(version),
        ]
    }

    /// Stores the answer, and keeps only the session's `keep` newest answers (by version), so a
    /// client cannot grow the table without bound by sending ever new keys. (On PostgreSQL an
    /// event's answer is stored by its folded write instead: `FoldedEventSQL.Answered`.)
    func store(
        _ connection: any SQLConnection, session: String, key: String, requestHash: [UInt8], token: String, rotates: Bool,
        now: Int64, keep: Int
    ) throws {
        try connection.run(
            "INSERT INTO idempotency_keys (\(Self.columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            values(session: session, key: key, requestHash: requestHash, token: token, rotates: rotates, now: now))
        try connection.run(
            """
            DELETE FROM idempotency_keys WHERE session_id = ?1 AND session_version <= (
                SELECT session_version FROM idempotency_keys WHERE session_id = ?1
                ORDER BY session_version DESC LIMIT 1 OFFSET ?2)
            """, [.text(session), .int(max(1, keep))])
    }

    /// The answer stored for `key` of a live session, if any. With `rotatedOnly` (a token that
    /// is no longer current), only an answer that rotated that very token away counts, and any
    /// mismatch is just "none". Otherwise throws `idempotencyKeyReused` when the key was used by
    /// a different request (other body, or other credentials).
    static func find(
        _ connection: any SQLConnection, session: String, key: String, requestHash: [UInt8], token: String, rotatedOnly: Bool,
        now: Int64
    ) throws -> StoredAnswer? {
        guard
            let (storedRequest, tokenHash, sealed, rotates) = try connection.queryFirst(
                """
                SELECT k.request_hash, k.token_hash, k.sealed_answer, k.rotates
                FROM idempotency_keys k JOIN sessions s ON s.id = k.session_id
                WHERE k.session_id = ?1 AND k.key = ?2 AND s.expires_at >= ?3
                """,
                [.text(session), .text(key), .integer(now)], { ($0.blob(0), $0.blob(1), $0.blob(2), $0.int(3) == 1) })
        else { return nil }
        let matches =
            Tokens.constantTimeEquals(tokenHash, Tokens.sha256(token))
            && Tokens.constantTimeEquals(storedRequest, requestHash)
        if rotatedOnly && !(matches && rotates) { return nil }
        guard matches, let plaintext = SecretBox.open(sealed, key: sealingKey(token: token)), plaintext.count >= 8
        else { throw SessionError.idempotencyKeyReused }
        let version = plaintext.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return StoredAnswer(version: Int(version), body: Array(plaintext.dropFirst(8)))
    }
}
