/// Where the server listens and the limits it enforces on every connection.
public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port; `HTTPServer.port` then reports the real one.
    public var port: UInt16
    /// Request bodies over this many bytes get `413` without being buffered.
    public var maxBodyBytes: Int
    /// Connections open at once, across all clients.
    public var connectionLimit: Int
    /// Connections open at once from one client address.
    public var perAddressConnectionLimit: Int
    /// Seconds a connection may sit idle before it is closed.
    public var idleTimeoutSeconds: Int
    /// Bytes of memory one connection may use for its headers and buffers (bounds the header size).
    public var connectionMemoryBytes: Int
    /// libmicrohttpd worker threads, each running its own epoll loop.
    public var threads: Int

    public init(
        host: String = "127.0.0.1", port: UInt16 = 8080, maxBodyBytes: Int = 64 * 1024,
        connectionLimit: Int = 1024, perAddressConnectionLimit: Int = 256, idleTimeoutSeconds: Int = 30,
        connectionMemoryBytes: Int = 32 * 1024, threads: Int = 2
    ) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.connectionLimit = connectionLimit
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.connectionMemoryBytes = connectionMemoryBytes
        self.threads = threads
    }
}
