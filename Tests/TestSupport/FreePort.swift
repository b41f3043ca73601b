import Foundation

/// Free ports of 127.0.0.1.
public enum FreePort {
    /// A port that nothing listens on now.
    public static func pick() throws -> UInt16 {
        let (descriptor, port) = try bound()
        close(descriptor)
        return port
    }

    /// A port that nothing listens on now, below the range the kernel picks ports from (for
    /// port 0, and for the local end of every outgoing connection). A server that stops and
    /// listens on it again finds it free: the kernel gives it to no one in between.
    public static func outsideTheEphemeralRange() throws -> UInt16 {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let lowest = range.split(whereSeparator: \.isWhitespace).first.flatMap { UInt16($0) } ?? 32768
        for _ in 0..<100 {
            let port = UInt16.random(in: 10000..<max(10001, lowest))
            if let descriptor = try? bound(port: port) {
                close(descriptor.descriptor)
                return port
            }
        }
        throw TestClientError(description: "no free port below \(lowest)")
    }

    /// A socket listening on a port the kernel picked, and that port; the caller closes it.
    public static func listen(backlog: Int32) throws -> (descriptor: Int32, port: UInt16) {
        let (descriptor, port) = try bound()
        guard Glibc.listen(descriptor, backlog) == 0 else {
            close(descriptor)
            throw TestClientError(description: "cannot listen on port \(port)")
        }
        return (descriptor, port)
    }

    /// A TCP socket bound to 127.0.0.1 on `port` (0: a port the kernel picked).
    private static func bound(port: UInt16 = 0) throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw TestClientError(description: "no free port")
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }
}
