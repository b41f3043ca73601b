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
public struct PreparedPasswords: Sendable {
    private var hashes: [String: String] = [:]
    private var verdicts: [PasswordWork: Bool] = [:]
    /// The Argon2id parameters in force.
    public let hasher: PasswordHasher

    /// Nothing prepared yet, with `hasher`'s parameters.
    public init(hasher: PasswordHasher) {
        self.hasher = hasher
    }

    /// The Argon2id hash of `password`, or `PasswordWorkNeeded` if it has not been computed yet.
    public func hash(_ password: String) throws -> String {
        guard let hash = hashes[password] else { throw PasswordWorkNeeded(work: .hash(password: password)) }
        return hash
    }

    /// Whether `password` matches `encodedHash`, or `PasswordWorkNeeded` if not checked yet.
    public func verify(_ password: String, against encodedHash: String) throws -> Bool {
        let work = PasswordWork.verify(password: password, encodedHash: encodedHash)
        guard let verdict = verdicts[work] else { throw PasswordWorkNeeded(work: work) }
        return verdict
    }

    /// True when `encodedHash` is weaker than the current parameters (cheap: no hashing).
    public func needsRehash(_ encodedHash: String) -> Bool { hasher.needsRehash(encodedHash) }

    /// Does `work` on `pool` and records its result.
    package mutating func perform(_ work: PasswordWork, on pool: PasswordHashPool) async throws {
        switch work {
        case .hash(let password): hashes[password] = try await pool.hash(password)
        case .verify(let password, let encodedHash): verdicts[work] = try await pool.verify(password, against: encodedHash)
        }
    }
}
