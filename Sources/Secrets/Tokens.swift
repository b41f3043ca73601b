import CSodium

/// Random bearer tokens and the digests stored in their place.
public enum Tokens {
    /// A new token of 256 random bits from libsodium, as 43 characters of unpadded base64url.
    public static func random(bytes count: Int = 32) -> String {
        Sodium.ensureReady()
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return Base64URL.encode(bytes)
    }

    /// SHA-256 of `text`'s UTF-8 bytes.
    public static func sha256(_ text: String) -> [UInt8] {
        sha256(bytes: Array(text.utf8))
    }

    /// SHA-256 of `bytes`.
    public static func sha256(bytes: [UInt8]) -> [UInt8] {
        Sodium.ensureReady()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return digest
    }

    /// Compares two byte strings in time that depends only on their length.
    public static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        Sodium.ensureReady()
        guard lhs.count == rhs.count else { return false }
        return sodium_memcmp(lhs, rhs, lhs.count) == 0
    }
}

/// Unpadded base64url (RFC 4648 §5), the alphabet safe in headers and URLs.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = UInt32(0)
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { output.append(alphabet[Int((value >> (18 - 6 * position)) & 63)]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
