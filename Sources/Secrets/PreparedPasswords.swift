import Foundation

/// Slow password work that must happen outside the database writer.
public enum PasswordWork: Hashable, Sendable {
    case hash(password: String)
    case verify(password: String, encodedHash: String)
}

/// Thrown from inside the writer when a flow needs a password hashed or verified that was not
/// prepared yet: the caller rolls back, does the work on the hash pool, and runs the event again
/// with the result prepared. So Argon2id never runs while the writer waits.
public struct PasswordWorkNeeded: Error, Sendable {
    /// The hash or verification to do.
    public let work: PasswordWork
}

/// Results of password work done for one event, handed to its next attempt.
///
/// Passwords are normalised before they are hashed or verified (`normalized(_:)`), so a password
/// typed on a keyboard that sends decomposed accents matches the one registered with composed
/// ones. A hash made before normalisation still verifies: when the normalised form does not
/// match, the password as typed is tried, and a match that way makes `needsRehash` true so
/// the flow stores a hash of the normalised form.
public struct PreparedPasswords: Sendable {
    // Keyed by UTF-8 bytes: Swift's `String` equality is canonical equivalence, which would
    // take the NFD and the NFC form of a password for one.
    private var hashes: [[UInt8]: String] = [:]
    private var verdicts: [Verification: Bool] = [:]
    /// Hashes that matched only the password as typed, not its normalised form.
    private var unnormalizedMatches: Set<String> = []
    /// The Argon2id parameters in force.
    public let hasher: PasswordHasher

    /// The longest password, in UTF-8 bytes, that is hashed or verified: so the hash pool never
    /// gets unbounded input. Far above what the apps' rules accept (128 code points are at most
    /// 512 bytes); a longer password never matches and cannot be hashed.
    public static let maxBytes = 1024

    /// Nothing prepared yet, with `hasher`'s parameters.
    public init(hasher: PasswordHasher) {
        self.hasher = hasher
    }

    /// The form of `password` that is hashed and verified: NFKC. NIST SP 800-63B (§5.1.1.2)
    /// asks verifiers to normalise with NFKC or NFKD (UAX #15) before hashing; NFKC also
    /// makes a fullwidth or ligature form typed by an input method the plain letters, and keeps
    /// composed letters in one code point, so what the length rule counts matches what a
    /// person typed.
    public static func normalized(_ password: String) -> String {
        password.precomposedStringWithCompatibilityMapping
    }

    /// The Argon2id hash of `password` (normalised), or `PasswordWorkNeeded` if it has not been
    /// computed yet. Throws `SecretsError` for a password past `maxBytes`.
    public func hash(_ password: String) throws -> String {
        let normalized = Self.normalized(password)
        guard normalized.utf8.count <= Self.maxBytes else {
            throw SecretsError(description: "a password longer than \(Self.maxBytes) bytes is not hashed")
        }
        guard let hash = hashes[Array(normalized.utf8)] else { throw PasswordWorkNeeded(work: .hash(password: normalized)) }
        return hash
    }

    /// Whether `password` matches `encodedHash`, or `PasswordWorkNeeded` if not checked yet: its
    /// normalised form first, then, for hashes made before normalisation, the password as typed.
    public func verify(_ password: String, against encodedHash: String) throws -> Bool {
        let normalized = Self.normalized(password)
        if try verdict(normalized, encodedHash) { return true }
        guard !normalized.utf8.elementsEqual(password.utf8) else { return false }
        return try verdict(password, encodedHash)
    }

    /// True when `encodedHash` is weaker than the current parameters, or matched only the
    /// password as typed rather than its normalised form (cheap: no hashing).
    public func needsRehash(_ encodedHash: String) -> Bool {
        unnormalizedMatches.contains(encodedHash) || hasher.needsRehash(encodedHash)
    }

    /// Does `work` on `pool` and records its result.
    package mutating func perform(_ work: PasswordWork, on pool: PasswordHashPool) async throws {
        switch work {
        case .hash(let password):
            hashes[Array(password.utf8)] = try await pool.hash(password)
        case .verify(let password, let encodedHash):
            let verdict = try await pool.verify(password, against: encodedHash)
            verdicts[Verification(password: Array(password.utf8), encodedHash: encodedHash)] = verdict
            if verdict && !Self.normalized(password).utf8.elementsEqual(password.utf8) {
                unnormalizedMatches.insert(encodedHash)
            }
        }
    }

    /// The prepared verdict for exactly these bytes; a password past `maxBytes` never matches.
    private func verdict(_ password: String, _ encodedHash: String) throws -> Bool {
        guard password.utf8.count <= Self.maxBytes else { return false }
        guard let verdict = verdicts[Verification(password: Array(password.utf8), encodedHash: encodedHash)] else {
            throw PasswordWorkNeeded(work: .verify(password: password, encodedHash: encodedHash))
        }
        return verdict
    }

    private struct Verification: Hashable, Sendable {
        let password: [UInt8]
        let encodedHash: String
    }
}
