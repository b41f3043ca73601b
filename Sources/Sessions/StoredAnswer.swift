import SQLiteStore
import Secrets

/// The first answer to an event posted with an `Idempotency-Key`, kept for replay.
///
/// It is sealed with a key derived from the bearer token of the request that produced it:
/// the answer may carry a newly rotated token, and the server keeps no token in the clear.
/// Only a client holding that request's token can have it replayed.
struct StoredAnswer: Sendable {
    let version: Int
    let body: [UInt8]

    static func sealingKey(token: String) -> [UInt8] {
        SecretBox.key(from: token, purpose: "idempotent-answer")
    }

    func store(
        _ connection: Connection, session: String, key: String, requestHash: [UInt8], token: String, now: Int64
    ) throws {
        var plaintext = withUnsafeBytes(of: Int64(version).bigEndian, Array.init)
        plaintext += body
        try connection.run(
            """
            INSERT INTO idempotency_keys (session_id, key, request_hash, token_hash, sealed_answer, created_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """,
            [
                .text(session), .text(key), .blob(requestHash), .blob(Tokens.sha256(token)),
                .blob(SecretBox.seal(plaintext, key: Self.sealingKey(token: token))), .integer(now),
            ])
    }

    /// The answer stored for `key`, if any. Throws `idempotencyKeyReused` when the key was
    /// used by a different request (other body, or other credentials).
    static func find(
        _ connection: Connection, session: String, key: String, requestHash: [UInt8], token: String
    ) throws -> StoredAnswer? {
        guard
            let (storedRequest, tokenHash, sealed) = try connection.queryFirst(
                "SELECT request_hash, token_hash, sealed_answer FROM idempotency_keys WHERE session_id = ?1 AND key = ?2",
                [.text(session), .text(key)], { ($0.blob(0), $0.blob(1), $0.blob(2)) })
        else { return nil }
        guard Tokens.constantTimeEquals(tokenHash, Tokens.sha256(token)),
            Tokens.constantTimeEquals(storedRequest, requestHash),
            let plaintext = SecretBox.open(sealed, key: sealingKey(token: token)), plaintext.count >= 8
        else { throw SessionError.idempotencyKeyReused }
        let version = plaintext.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return StoredAnswer(version: Int(version), body: Array(plaintext.dropFirst(8)))
    }
}
