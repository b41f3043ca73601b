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

    /// The `tchar`s below 64 and from 64 to 127, as bits.
    private static let tokenBytes: (UInt64, UInt64) = {
        var bits: (UInt64, UInt64) = (0, 0)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        for byte in letters + Array("!#$%&'*+-.^_`|~".utf8) {
            if byte < 64 { bits.0 |= 1 << UInt64(byte) } else { bits.1 |= 1 << UInt64(byte - 64) }
        }
        return bits
    }()
}
