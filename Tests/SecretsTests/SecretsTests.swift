import Foundation
import Secrets
import TestSupport
import Testing

@Suite struct SecretsTests {
    // Small parameters keep the test fast; production uses `owaspMinimum`.
    static let fast = PasswordHasher(operations: 1, memoryBytes: 8 * 1024)

    @Test func argon2idHashVerifiesOnlyTheRightPassword() throws {
        let hash = try Self.fast.hash("correct horse battery staple")
        #expect(hash.hasPrefix("$argon2id$"))
        #expect(Self.fast.verify("correct horse battery staple", against: hash))
        #expect(!Self.fast.verify("correct horse battery stapler", against: hash))
        #expect(!Self.fast.verify("anything", against: "not a hash"))
        #expect(try Self.fast.hash("same") != Self.fast.hash("same"))  // salted
    }

    @Test func weakerHashesNeedRehash() throws {
        let weak = try Self.fast.hash("a password long enough")
        #expect(PasswordHasher.owaspMinimum.needsRehash(weak))
        #expect(!Self.fast.needsRehash(weak))
    }

    @Test func owaspMinimumMeetsTheFloor() async throws {
        #expect(PasswordHasher.owaspMinimum.operations >= 2)
        #expect(PasswordHasher.owaspMinimum.memoryBytes >= 19 * 1024 * 1024)
        // 19 MiB of Argon2id: not on a thread of Swift's pool, which the whole test process shares.
        let hash = try await onOwnThread { try PasswordHasher.owaspMinimum.hash("x") }
        #expect(hash.contains("m=19456,t=2,p=1"))
    }

    @Test func poolHashesOffThread() async throws {
        let pool = PasswordHashPool(hasher: Self.fast, concurrency: 2)
        let hash = try await pool.hash("pool password")
        #expect(try await pool.verify("pool password", against: hash))
        #expect(try await !pool.verify("other", against: hash))
    }

    @Test func tokensAre256RandomBitsInBase64URL() {
        let tokens = (0..<100).map { _ in Tokens.random() }
        #expect(Set(tokens).count == 100)
        for token in tokens {
            #expect(token.count == 43)
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        }
    }

    @Test func sha256MatchesTheKnownVector() {
        let digest = Tokens.sha256("abc")
        let hex = digest.map { String($0, radix: 16).leftPadded() }.joined()
        #expect(hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func aTokensCheckIsTheSameForItAndDiffersForAnyOther() {
        let token = Tokens.random()
        #expect(TokenCheck(token) == TokenCheck(token))
        #expect(TokenCheck(token) != TokenCheck(String(token.dropLast())))
        #expect(TokenCheck(token) != TokenCheck(Tokens.random()))
        #expect(TokenCheck("") == TokenCheck(""))
    }

    @Test func constantTimeComparison() {
        #expect(Tokens.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!Tokens.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!Tokens.constantTimeEquals([1, 2, 3], [1, 2]))
    }
}

extension String {
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}

/// The password pool's bound and its shutdown.
@Suite struct PasswordPoolTests {
    @Test func aFullQueueRefusesAtOnceInsteadOfMakingEveryoneWait() async throws {
        let pool = PasswordHashPool(hasher: SecretsTests.fast, concurrency: 1, maxQueued: 2)
        pool.pause()
        let queued = (0..<2).map { index in Task { try await pool.hash("queued \(index)") } }
        try await waitUntil("two hashes queued") { pool.statistics.waiting >= 2 }
        await #expect(throws: PasswordPoolBusy.self) { try await pool.hash("one too many") }
        #expect(pool.statistics.refused == 1)
        pool.resume()
        for job in queued { #expect(try await job.value("a queued hash").hasPrefix("$argon2id$")) }
        #expect(pool.statistics.started == 2)
        pool.close()
    }

    @Test func closingFailsWhatIsQueuedRatherThanStrandingItsCallers() async throws {
        let pool = PasswordHashPool(hasher: SecretsTests.fast, concurrency: 1, maxQueued: 4)
        pool.pause()
        let queued = Task { try await pool.verify("x", against: "not a hash") }
        try await waitUntil("a check queued") { pool.statistics.waiting >= 1 }
        pool.close()
        await #expect(throws: PasswordPoolBusy.self) { try await queued.value("the queued check") }
        await #expect(throws: PasswordPoolBusy.self) { try await pool.hash("after close") }
    }
}

/// `PreparedPasswords` normalises (NFKC) what it hashes and verifies, and still verifies a hash
/// of the password as typed, asking for a rehash when that was what matched.
@Suite struct PreparedPasswordsTests {
    static let composed = "d\u{00E9}j\u{00E0} vu, \u{FB01}nally"
    static let decomposed = composed.decomposedStringWithCanonicalMapping

    /// Runs `body` until it stops asking for password work, doing the work on `pool`.
    static func prepared<T>(
        _ passwords: inout PreparedPasswords, _ pool: PasswordHashPool, _ body: (PreparedPasswords) throws -> T
    ) async throws -> (T, rounds: Int) {
        for round in 0..<4 {
            do {
                return (try body(passwords), round)
            } catch let needed as PasswordWorkNeeded {
                try await passwords.perform(needed.work, on: pool)
            }
        }
        throw TestFailure("still asking for work")
    }

    @Test func normalisedFormsHashAndVerifyAlike() async throws {
        let pool = PasswordHashPool(hasher: SecretsTests.fast)
        var passwords = PreparedPasswords(hasher: SecretsTests.fast)
        #expect(throws: PasswordWorkNeeded.self) { try passwords.hash(Self.decomposed) }
        do {
            _ = try passwords.hash(Self.decomposed)
        } catch let needed as PasswordWorkNeeded {
            guard case .hash(let password) = needed.work else { throw TestFailure("not a hash") }
            #expect(Array(password.utf8) == Array("d\u{00E9}j\u{00E0} vu, finally".utf8))
        }
        let (hash, _) = try await Self.prepared(&passwords, pool) { try $0.hash(Self.decomposed) }
        #expect(try passwords.hash(Self.composed) == hash)
        var fresh = PreparedPasswords(hasher: SecretsTests.fast)
        let (matches, rounds) = try await Self.prepared(&fresh, pool) { try $0.verify(Self.decomposed, against: hash) }
        #expect(matches && rounds == 1)
        #expect(!fresh.needsRehash(hash))
    }

    @Test func aHashOfThePasswordAsTypedMatchesAndAsksForARehash() async throws {
        let pool = PasswordHashPool(hasher: SecretsTests.fast)
        let legacy = try SecretsTests.fast.hash(Self.decomposed)
        var passwords = PreparedPasswords(hasher: SecretsTests.fast)
        let (matches, rounds) = try await Self.prepared(&passwords, pool) { try $0.verify(Self.decomposed, against: legacy) }
        #expect(matches && rounds == 2)  // the normalised form, then the form as typed
        #expect(passwords.needsRehash(legacy))
        // The composed form is another password to that old hash: it was not normalised.
        var other = PreparedPasswords(hasher: SecretsTests.fast)
        let (composedMatches, _) = try await Self.prepared(&other, pool) { try $0.verify(Self.composed, against: legacy) }
        #expect(!composedMatches)
        #expect(!other.needsRehash(legacy))
    }

    @Test func theHasherNeverGetsUnboundedInput() async throws {
        let pool = PasswordHashPool(hasher: SecretsTests.fast)
        var passwords = PreparedPasswords(hasher: SecretsTests.fast)
        let huge = String(repeating: "\u{FDFA}", count: 100)  // NFKC makes each 18 code points
        #expect(throws: SecretsError.self) { try passwords.hash(huge) }
        let hash = try SecretsTests.fast.hash("anything")
        let (matches, rounds) = try await Self.prepared(&passwords, pool) {
            try $0.verify(String(repeating: "x", count: PreparedPasswords.maxBytes + 1), against: hash)
        }
        #expect(!matches && rounds == 0)
        #expect(pool.statistics.started == 0)
    }
}

struct TestFailure: Error {
    let description: String
    init(_ description: String) { self.description = description }
}
