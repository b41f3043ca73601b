/// The reverse proxies whose `X-Forwarded-For` header is believed.
///
/// A client can write any `X-Forwarded-For` it likes, so the header counts only when the peer
/// itself is a trusted proxy. Each proxy appends the address it received the request from, so
/// the header is read from the right: trusted proxies are passed over, and the first other entry
/// is the client, which the nearest trusted proxy wrote. What lies to its left came from the
/// client and is never read, so `unknown`, `_hidden` or a forged address there change nothing.
/// If that entry is not an address (a proxy that wrote `unknown`), the client is not known
/// and the nearest trusted proxy stands for it: reading further left would believe the client.
///
/// `Forwarded` (RFC 7239) is not read: the proxies in front (`deploy/nginx.conf`) pass it on as the
/// client sent it, so believing it would let a client choose its own address.
package struct TrustedProxies: Sendable, Equatable {
    /// The proxies' addresses in canonical form (`::ffff:10.0.0.2` is `10.0.0.2`).
    package let addresses: Set<String>

    /// - Parameter addresses: numeric IP addresses of the proxies; anything else is ignored.
    package init(_ addresses: [String] = []) {
        self.addresses = Set(addresses.compactMap { IPAddress($0)?.description })
    }

    /// Whether `text` is a numeric IPv4 or IPv6 address, as a proxy's address must be.
    package static func isAddress(_ text: String) -> Bool { IPAddress(text) != nil }

    /// The client's address for a request from `peer` carrying `forwardedFor` headers: the
    /// canonical form of the right-most entry that is not a trusted proxy, or `peer` itself.
    package func clientAddress(peer: String, forwardedFor: [String]) -> String {
        guard !forwardedFor.isEmpty, let proxy = IPAddress(peer), addresses.contains(proxy.description) else {
            return peer
        }
        var nearest = peer
        for header in forwardedFor.reversed() {
            for entry in header.split(separator: ",", omittingEmptySubsequences: false).reversed() {
                let text = entry.trimmingOptionalWhitespace()
                // An empty element is no hop (RFC 9110 §5.6.1 lists may carry them).
                if text.isEmpty { continue }
                guard let address = IPAddress(forwardedEntry: text) else { return nearest }
                guard addresses.contains(address.description) else { return address.description }
                nearest = address.description
            }
        }
        return nearest
    }
}
