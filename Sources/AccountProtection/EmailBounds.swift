/// How long an e-mail address and its comparison key (`EmailAddress.key`) may be, in bytes.
/// Checked before an address is looked up, keyed or stored, so that no client-chosen text
/// grows what is stored past these bounds.
public enum EmailBounds {
    /// An address: 254 bytes (RFC 5321's limit on a path).
    public static let maxBytes = 254
    /// A comparison key: NFKC and the look-alike map may lengthen an address, but no real one
    /// fourfold (U+FDFA alone turns 3 bytes into 33).
    public static let maxKeyBytes = 4 * maxBytes

    /// True when `email`'s comparison key is within `maxKeyBytes`.
    public static func keyFits(_ email: String) -> Bool {
        EmailAddress.key(email).utf8.count <= maxKeyBytes
    }
}
