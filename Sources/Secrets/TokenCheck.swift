import CSodium

/// A keyed 128-bit digest of a token (SipHash-2-4 with 128-bit output, libsodium's
/// `crypto_shorthash_siphashx24`), under a key drawn at random when the process starts: what a
/// session in memory keeps of the token its requests proved, so that the next request with that
/// token is recognised without a SHA-256 (about a tenth of its instructions).
///
/// It never leaves the process and is never stored: the store keeps only the SHA-256 (DESIGN §6).
/// Without the key nobody can compute one, and telling two tokens apart by it takes 2^128 guesses.
public struct TokenCheck: Sendable, Equatable {
    private let low: UInt64
    private let high: UInt64

    /// The check of `token` under this process's key.
    public init(_ token: String) {
        var digest = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &digest) { digest in
            var text = token
            text.withUTF8 { bytes in
                Self.key.withUnsafeBytes { key in
                    _ = crypto_shorthash_siphashx24(
                        digest.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.baseAddress, UInt64(bytes.count),
                        key.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        (low, high) = digest
    }

    /// Compared in constant time: every bit is looked at, whatever differs.
    public static func == (lhs: TokenCheck, rhs: TokenCheck) -> Bool {
        (lhs.low ^ rhs.low) | (lhs.high ^ rhs.high) == 0
    }

    private static let key: [UInt8] = {
        Sodium.ensureReady()
        var key = [UInt8](repeating: 0, count: Int(crypto_shorthash_siphashx24_KEYBYTES))
        randombytes_buf(&key, key.count)
        return key
    }()
}
