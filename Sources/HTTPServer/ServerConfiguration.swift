/// Where the server listens and the limits it enforces on every connection.
package struct ServerConfiguration: Sendable {
    package var host: String
    /// 0 picks a free port; `HTTPServer.port` then reports the real one.
    package var port: UInt16
    /// Request bodies over this many bytes get `413` without being buffered.
    package var maxBodyBytes: Int
    /// Connections open at once, across all clients. An eighth is kept free for new clients: past
    /// that, the connection that has waited longest for its client is closed (`ConnectionWatch`).
    package var connectionLimit: Int
    /// Connections open at once from one client address.
    package var perAddressConnectionLimit: Int
    /// Seconds a connection may sit idle before it is closed.
    package var idleTimeoutSeconds: Int
    /// Seconds a new connection has to send complete request headers (slow clients are cut off).
    package var headerTimeoutSeconds: Int
    /// Seconds a request has to send its whole body once its headers are in.
    package var requestTimeoutSeconds: Int
    /// Query arguments a request may carry; more get `400` before the headers are parsed.
    package var maxQueryArguments: Int
    /// Bytes of memory one connection may use for its headers and buffers (bounds the header size).
    package var connectionMemoryBytes: Int
    /// Peers whose `X-Forwarded-For` names the client (the reverse proxies in front).
    package var trustedProxies: TrustedProxies
    /// libmicrohttpd worker threads, each running its own epoll loop.
    package var threads: Int
    /// Where handlers run: nil (the default) is the worker thread that read the request, which
    /// runs each handler until it waits and again when whoever ended the wait resumes it
    /// (`ConnectionExecutor`). An executor of their own runs them elsewhere (a test's thread).
    package var handlerExecutor: (any TaskExecutor)?
    /// Where the server counts its handlers (pass one to read them, as `/metrics` does).
    package var handlerCounters: HandlerCounters

    package init(
        host: String = "127.0.0.1", port: UInt16 = 8080, maxBodyBytes: Int = 64 * 1024,
        connectionLimit: Int = 1024, perAddressConnectionLimit: Int = 64, idleTimeoutSeconds: Int = 30,
        headerTimeoutSeconds: Int = 10, requestTimeoutSeconds: Int = 30, maxQueryArguments: Int = 64,
        connectionMemoryBytes: Int = 32 * 1024, trustedProxies: TrustedProxies = TrustedProxies(), threads: Int = 2,
        handlerExecutor: (any TaskExecutor)? = nil, handlerCounters: HandlerCounters = HandlerCounters()
    ) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.connectionLimit = connectionLimit
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.headerTimeoutSeconds = headerTimeoutSeconds
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.maxQueryArguments = maxQueryArguments
        self.connectionMemoryBytes = connectionMemoryBytes
        self.trustedProxies = trustedProxies
        self.threads = threads
        self.handlerExecutor = handlerExecutor
        self.handlerCounters = handlerCounters
    }
}
