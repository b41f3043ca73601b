import Secrets

/// How the throttles store a key made of text a client chose (an e-mail's comparison key, a
/// client address): its SHA-256 in hex, 64 characters whatever the text's length, so a long key
/// costs a row no more than a short one.
public enum StoredKey {
    /// The stored form of `key`: its SHA-256 in lower-case hex.
    public static func of(_ key: String) -> String {
        hex(Tokens.sha256(key))
    }

    /// `bytes` in lower-case hex.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
