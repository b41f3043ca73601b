/// RFC 9110 `token`: what methods and header field names are made of.
enum HTTPToken {
    /// Whether `byte` is a `tchar`: a letter, a digit, or one of ``!#$%&'*+-.^_`|~``.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        // A bit per byte value: every header name of every request is checked (a `Set` of the
        // symbols hashed each `-` of `Content-Type`).
        let word = byte < 64 ? tokenBytes.0 : byte < 128 ? tokenBytes.1 : 0
        return word & (1 << UInt64(byte & 63)) != 0
    }

    /// Whether `text` is a non-empty token.
    static func isToken(_ text: String) -> Bool {
        // Over the contiguous bytes of a native string (the view's own iteration costs an index
        // step per byte); a bridged or small string takes the view's path.
        if let token = text.utf8.withContiguousStorageIfAvailable({ !$0.isEmpty && $0.allSatisfy(isTokenByte) }) {
            return token
        }
        return !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    /// The `tchar`s below 64 and from 64 to 127, as bits: letters, digits and
    /// ``!#$%&'*+-.^_`|~`` (`HTTPTokenTests` checks every byte against that list). Literals, since
    /// a `static let` made by a closure is reached through a `swift_once` check per byte.
    private static var tokenBytes: (UInt64, UInt64) { (0x03ff_6cfa_0000_0000, 0x57ff_ffff_c7ff_fffe) }
}
