import CSodium

/// Authenticated encryption (libsodium's `crypto_secretbox`, XSalsa20-Poly1305) under a key
/// derived from a secret the client holds, so the server can keep an answer it cannot read alone.
package enum SecretBox {
    /// A 32-byte key derived from `secret` for `purpose` (domain-separated SHA-256).
    package static func key(from secret: String, purpose: String) -> [UInt8] {
        Tokens.sha256("coordinatord:\(purpose):\(secret)")
    }

    /// Encrypts `plaintext`; the random nonce is prepended to the result.
    package static func seal(_ plaintext: [UInt8], key: [UInt8]) -> [UInt8] {
        Sodium.ensureReady()
        precondition(key.count == Int(crypto_secretbox_KEYBYTES), "secretbox keys are 32 bytes")
        var nonce = [UInt8](repeating: 0, count: Int(crypto_secretbox_NONCEBYTES))
        randombytes_buf(&nonce, nonce.count)
        var sealed = [UInt8](repeating: 0, count: plaintext.count + Int(crypto_secretbox_MACBYTES))
        _ = crypto_secretbox_easy(&sealed, plaintext, UInt64(plaintext.count), nonce, key)
        return nonce + sealed
    }

    /// Decrypts what `seal` made with the same key; nil if the key is wrong or the bytes were altered.
    package static func open(_ box: [UInt8], key: [UInt8]) -> [UInt8]? {
        Sodium.ensureReady()
        let nonceLength = Int(crypto_secretbox_NONCEBYTES)
        guard key.count == Int(crypto_secretbox_KEYBYTES), box.count >= nonceLength + Int(crypto_secretbox_MACBYTES)
        else { return nil }
        let nonce = Array(box.prefix(nonceLength))
        let sealed = Array(box.dropFirst(nonceLength))
        var plaintext = [UInt8](repeating: 0, count: sealed.count - Int(crypto_secretbox_MACBYTES))
        guard crypto_secretbox_open_easy(&plaintext, sealed, UInt64(sealed.count), nonce, key) == 0 else { return nil }
        return plaintext
    }
}
