// The catalog's version: what a client compares to notice a deploy that changed the screens.

extension NavigationApp {
    /// A 64-bit FNV-1a hash of `bytes`, as 16 hex digits. It detects change, nothing more: the
    /// catalog is public, so there is nothing to forge.
    static func version(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The catalog as `GET /v1/screens` sends it (in `language`, as written for nil), and its
    /// entity tag (its quoted `version`, which differs between languages).
    public func catalogDocument(in language: String? = nil) -> (bytes: [UInt8], etag: String) {
        let catalog = catalog(in: language)
        return (catalog.serialized(), "\"\(catalog.objectValue?["version"]?.stringValue ?? "")\"")
    }
}
