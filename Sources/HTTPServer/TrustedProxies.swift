/// The reverse proxies whose `X-Forwarded-For` header is believed.
///
/// A client can write any `X-Forwarded-For` it likes, so the header counts only when the
/// peer itself is a trusted proxy; then the client is the right-most address in the header
/// that is not a trusted proxy (each proxy appends the address it received from).
public struct TrustedProxies: Sendable, Equatable {
    public let addresses: Set<String>

    /// - Parameter addresses: numeric IP addresses of the proxies, as the server sees them.
    public init(_ addresses: [String] = []) {
        self.addresses = Set(addresses)
    }

    /// The client's address for a request from `peer` carrying `forwardedFor` headers.
    public func clientAddress(peer: String, forwardedFor: [String]) -> String {
        guard addresses.contains(peer), !forwardedFor.isEmpty else { return peer }
        let hops = forwardedFor.joined(separator: ",").split(separator: ",").map {
            String($0.filter { $0 != " " && $0 != "\t" })
        }
        guard hops.allSatisfy(Self.looksLikeAddress) else { return peer }
        return hops.last { !addresses.contains($0) } ?? hops.first ?? peer
    }

    /// Digits, hex letters, dots and colons only: an IPv4 or IPv6 literal, nothing a log could misread.
    private static func looksLikeAddress(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 45
            && text.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || $0 == "." || $0 == ":" }
    }
}
