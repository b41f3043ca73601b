import Secrets
import SessionStorage
import Store

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

    /// This answer as the store keeps it, sealed for `token`.
    func row(session: String, key: String, requestHash: [UInt8], token: String, rotates: Bool, now: Int64) -> AnswerRow {
        var plaintext = withUnsafeBytes(of: Int64(version).bigEndian, Array.init)
        plaintext += body
        return AnswerRow(
            session: session, key: key, requestHash: requestHash, tokenHash: Tokens.sha256(token),
            sealed: SecretBox.seal(plaintext, key: Self.sealingKey(token: token)), createdAt: now, rotates: rotates,
            version: version)
    }

    /// The answer stored for `key` of a live session, if any. With `rotatedOnly` (a token that
    /// is no longer current), only an answer that rotated that very token away counts, and any
    /// mismatch is just "none". Otherwise throws `idempotencyKeyReused` when the key was used by
    /// a different request (other body, or other credentials).
    static func find(
        _ tables: any SessionPersistence, _ connection: any SQLConnection, session: String, key: String,
        requestHash: [UInt8], token: String, rotatedOnly: Bool, now: Int64
    ) throws -> StoredAnswer? {
        guard let found = try tables.findAnswer(session: session, key: key, now: now, on: connection) else { return nil }
        let matches =
            Tokens.constantTimeEquals(found.tokenHash, Tokens.sha256(token))
            && Tokens.constantTimeEquals(found.requestHash, requestHash)
        if rotatedOnly && !(matches && found.rotates) { return nil }
        guard matches, let plaintext = SecretBox.open(found.sealed, key: sealingKey(token: token)), plaintext.count >= 8
        else { throw SessionError.idempotencyKeyReused }
        let version = plaintext.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return StoredAnswer(version: Int(version), body: Array(plaintext.dropFirst(8)))
    }
}
