import Foundation

/// What per-client limits count by: the client's address, or for IPv6 its /64 network, since
/// one IPv6 host is usually given a whole /64 and could otherwise take a new address per request.
enum ClientKey {
    static func of(_ address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        // An IPv4 address written as IPv6 (::ffff:a.b.c.d) is that IPv4 client.
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":") + "::/64"
    }
}
