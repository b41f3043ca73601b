// libmicrohttpd's header includes <sys/socket.h>: whichever of Glibc and CMicroHTTPD is built
// first owns its declarations (MSG_PEEK, AF_INET6), so this file imports both.
import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

/// A numeric IPv4 or IPv6 address, parsed by `inet_pton` and printed in its canonical form.
///
/// IPv4-mapped IPv6 addresses (`::ffff:192.0.2.1`, what a dual-stack socket reports for an IPv4
/// peer) print as the IPv4 address, so one client has one spelling whatever the path it came by.
struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    let description: String

    /// Parses a bare address (`192.0.2.1`, `2001:db8::1`); nil for anything else.
    init?(_ text: some StringProtocol) {
        // The longest IPv6 text form is 45 characters; refusing longer text early bounds the work.
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        let string = String(text)
        var v4 = in_addr()
        if inet_pton(AF_INET, string, &v4) == 1 {
            description = Self.text(family: AF_INET, &v4, length: Int(INET_ADDRSTRLEN))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, string, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            description = bytes[12...].map(String.init).joined(separator: ".")
        } else {
            description = Self.text(family: AF_INET6, &v6, length: Int(INET6_ADDRSTRLEN))
        }
    }

    /// Parses one `X-Forwarded-For` entry: a bare address, `192.0.2.1:5678`, `[2001:db8::1]`
    /// or `[2001:db8::1]:443` (some proxies add the port); nil for anything else (`unknown`,
    /// `_hidden`, a name, a zone id).
    init?(forwardedEntry entry: Substring) {
        var host = entry
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || Self.isPort(rest) else { return nil }
            host = host[host.index(after: host.startIndex)..<close]
            // Only IPv6 goes in brackets.
            guard host.contains(":") else { return nil }
        } else if let colon = host.firstIndex(of: ":"), host[host.index(after: colon)...].firstIndex(of: ":") == nil {
            // One colon: IPv4 with a port (an IPv6 address has at least two).
            guard Self.isPort(host[colon...]) else { return nil }
            host = host[..<colon]
            guard host.contains(".") else { return nil }
        }
        self.init(host)
    }

    /// `:` followed by 1 to 5 digits.
    private static func isPort(_ text: Substring) -> Bool {
        let digits = text.dropFirst()
        return text.first == ":" && (1...5).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func text(family: Int32, _ address: UnsafeRawPointer, length: Int) -> String {
        var buffer = [CChar](repeating: 0, count: length)
        guard inet_ntop(family, address, &buffer, socklen_t(length)) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
