import CSodium

/// Argon2id password hashing through libsodium's `crypto_pwhash_str`, of a password's exact UTF-8
/// bytes (flows go through `PreparedPasswords`, which normalises first). Each call takes tens of
/// milliseconds on purpose; call it from `PasswordHashPool`, never from a request's own thread.
public struct PasswordHasher: Sendable {
    /// Argon2id passes.
    public let operations: Int
    /// Argon2id memory in bytes.
    public let memoryBytes: Int

    /// OWASP's minimum for Argon2id: 19 MiB of memory, 2 passes, 1 lane.
    public static let owaspMinimum = PasswordHasher(operations: 2, memoryBytes: 19 * 1024 * 1024)

    /// Argon2id with `operations` passes over `memoryBytes` of memory.
    public init(operations: Int, memoryBytes: Int) {
        self.operations = operations
        self.memoryBytes = memoryBytes
    }

    /// The encoded hash (`$argon2id$v=19$m=...`) of `password`, salted at random.
    public func hash(_ password: String) throws -> String {
        Sodium.ensureReady()
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let code = password.withCString { chars in
            crypto_pwhash_str_alg(
                &output, chars, UInt64(password.utf8.count), UInt64(operations), memoryBytes,
                crypto_pwhash_ALG_ARGON2ID13)
        }
        guard code == 0 else { throw SecretsError(description: "Argon2id hashing failed (out of memory)") }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True when `password` matches `encodedHash`. A malformed hash never matches.
    public func verify(_ password: String, against encodedHash: String) -> Bool {
        Sodium.ensureReady()
        return password.withCString { chars in
            crypto_pwhash_str_verify(encodedHash, chars, UInt64(password.utf8.count)) == 0
        }
    }

    /// True when `encodedHash` was made with weaker parameters than these (or is not Argon2id).
    public func needsRehash(_ encodedHash: String) -> Bool {
        Sodium.ensureReady()
        return crypto_pwhash_str_needs_rehash(encodedHash, UInt64(operations), memoryBytes) != 0
    }
}

/// A libsodium call that failed.
public struct SecretsError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
