import Foundation

/// Ports of 127.0.0.1 picked by the kernel (port 0).
public enum FreePort {
    /// A port that nothing listens on now.
    public static func pick() throws -> UInt16 {
        let (descriptor, port) = try bound()
        close(descriptor)
        return port
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

    /// A TCP socket bound to 127.0.0.1 on a port the kernel picked.
    private static func bound() throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
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
