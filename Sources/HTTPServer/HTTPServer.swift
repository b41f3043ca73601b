import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd that hands complete requests to an `HTTPResponder`.
///
/// Threading model: libmicrohttpd runs `threads` worker threads, each with its own epoll loop
/// over its share of the connections. A worker thread runs the access callback: it gathers the
/// headers and the body chunks of a request. When a request is complete the worker starts a
/// Swift task for the responder and runs it at once, on its own thread, until it first waits
/// (a read, a group commit, a password hash on its own bounded pool); then it *suspends* the
/// connection and returns to its loop. Whoever ends the wait only queues the task's next job and
/// resumes the connection, and the worker runs the job in its next callback for that connection
/// (`ConnectionExecutor`). Neither a worker thread nor any other is blocked while a handler
/// waits, and no thread is woken only to pass the work on. When the task delivers its response
/// the worker queues it.
package final class HTTPServer: Sendable {
    /// The port the server listens on (the one picked when configured with port 0).
    package let port: UInt16
    private let daemon: DaemonHandle
    private let core: ServerCore
    private let stopped = Atomic<Bool>(false)

    /// Starts listening at once; throws if the address cannot be bound.
    package init(configuration: ServerConfiguration, responder: some HTTPResponder) throws {
        let core = ServerCore(responder: responder, configuration: configuration)
        let context = Unmanaged.passRetained(core).toOpaque()
        // TURBO: a connection closes without `shutdown`, so that an event stream's socket, which
        // its stream holds through a copy of the descriptor, stays open when libmicrohttpd lets go
        // of its connection (see `MHDCallbacks.takeOver`); it also reads new connections at once.
        let flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue)
            | UInt32(MHD_ALLOW_SUSPEND_RESUME.rawValue) | UInt32(MHD_USE_ITC.rawValue) | UInt32(MHD_USE_TURBO.rawValue)
        var options = [
            MHD_OptionItem(option: .THREAD_POOL_SIZE, value: max(1, configuration.threads), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
            MHD_OptionItem(
                option: .PER_IP_CONNECTION_LIMIT, value: configuration.perAddressConnectionLimit,
                ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(
                option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryBytes, ptr_value: nil),
            MHD_OptionItem(option: .LISTEN_BACKLOG_SIZE, value: 1024, ptr_value: nil),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        // The closures below capture nothing, so they convert to C function pointers; each
        // recovers the core from the context pointer that `passRetained` above keeps alive
        // until `shutdown` releases it. They run on libmicrohttpd's worker threads.
        let started = options.withUnsafeMutableBufferPointer { items in
            coordinatord_mhd_start(
                configuration.host, configuration.port, flags,
                { context, connection, url, method, version, data, size, requestContext in
                    MHDCallbacks.access(
                        core: Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue(),
                        connection: connection!, url: url, method: method, version: version, data: data, size: size!,
                        requestContext: requestContext!)
                }, context,
                { context, connection, requestContext, termination in
                    MHDCallbacks.completed(
                        core: Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue(),
                        connection: connection, requestContext: requestContext, termination: termination)
                }, context,
                { context, connection, _, code in
                    MHDCallbacks.connectionChanged(
                        core: Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue(),
                        connection: connection, opened: code == .CONNECTION_NOTIFY_STARTED)
                }, context,
                { context, uri, connection in
                    MHDCallbacks.requestLine(
                        core: Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue(), uri: uri,
                        connection: connection)
                    return nil
                }, context, items.baseAddress)
        }
        guard let started else {
            core.watch.stop()
            Unmanaged<ServerCore>.fromOpaque(context).release()
            throw HTTPServerError(
                description: "cannot listen on \(configuration.host):\(configuration.port) (address in use or invalid)")
        }
        // Best effort: without it a ClientHello on this port waits for the header timeout.
        _ = coordinatord_mhd_defer_accept(started, Int32(max(1, configuration.headerTimeoutSeconds)))
        self.daemon = DaemonHandle(pointer: started)
        self.core = core
        self.port = coordinatord_mhd_bound_port(started)
    }

    /// Requests whose handler is running or whose response is being sent.
    package var requestsInFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Request handlers running now, and those whose client left.
    package var handlers: HandlerCounters { core.handlers }

    /// Event streams being sent now.
    package var openStreams: Int { core.streams.count }

    /// Drains and stops: stops accepting connections, ends every event stream with a frame telling
    /// its client to reconnect elsewhere, answers every request from now on with
    /// `Connection: close` (new requests on open connections get `503`), lets requests in flight
    /// finish for up to `gracePeriod`, then closes every connection. Returns false if handlers
    /// were still running at the deadline; the daemon is then left running, since stopping it
    /// would free connections those handlers still hold. Calling it again does nothing.
    @discardableResult
    package func shutdown(gracePeriod: Duration = .seconds(10)) async -> Bool {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return true }
        core.draining.store(true, ordering: .releasing)
        // The listening socket is shut down, not closed, until the daemon has stopped. After
        // `MHD_quiesce_daemon` a worker may still remove it from its epoll set (libmicrohttpd
        // 0.9.75, daemon.c 4930-4941): it tolerates `ENOENT` there, but not `EBADF`, and with
        // the socket closed at once a test run aborted with "Failed to remove listen FD from
        // epoll set". Shut down, the socket refuses new connections at once and stays valid;
        // it is closed once the daemon has stopped (never, if handlers outlast the grace period).
        let listener = MHD_quiesce_daemon(daemon.pointer)
        if listener >= 0 { _ = Glibc.shutdown(listener, Int32(SHUT_RDWR)) }
        // Streams never end on their own: each gets its last frame now (and no suspended
        // connection is left when the daemon stops, which libmicrohttpd forbids).
        core.streams.drain()
        let deadline = ContinuousClock.now + gracePeriod
        // Polls with an async sleep: no thread of Swift's pool is blocked while requests drain.
        while core.inFlight.load(ordering: .acquiring) > 0 || core.handlers.running > 0 {
            if ContinuousClock.now >= deadline {
                if core.handlers.running > 0 { return false }
                break
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        // Streams whose readers have not taken their last frame yet close with the daemon.
        while core.streams.count > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        core.streams.stop()
        core.watch.stop()
        MHD_stop_daemon(daemon.pointer)
        // A quiesced daemon leaves its listening socket to its caller.
        if listener >= 0 { close(listener) }
        Unmanaged.passUnretained(core).release()
        return true
    }
}

/// The daemon pointer; libmicrohttpd's quiesce and stop calls are safe from any thread.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// A connection pointer handed to a handler task; `MHD_resume_connection` is safe from any thread.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// What the C callbacks need: the responder, the limits, the deadlines and the in-flight counters.
final class ServerCore: Sendable {
    let responder: any HTTPResponder
    let limits: ServerConfiguration
    let watch: ConnectionWatch
    /// Set by `shutdown`: answers close their connections and new requests are refused.
    let draining = Atomic<Bool>(false)
    /// Requests that have had their first callback and not yet their completion callback.
    let inFlight = Atomic<Int>(0)
    /// Handlers running, and those whose client left.
    var handlers: HandlerCounters { limits.handlerCounters }
    /// Event streams being sent (past libmicrohttpd: not requests in flight, nor its connections).
    let streams = OpenStreams()

    init(responder: any HTTPResponder, configuration: ServerConfiguration) {
        self.responder = responder
        self.limits = configuration
        self.watch = ConnectionWatch(
            headerTimeoutSeconds: configuration.headerTimeoutSeconds,
            requestTimeoutSeconds: configuration.requestTimeoutSeconds,
            idleTimeoutSeconds: configuration.idleTimeoutSeconds, connectionLimit: configuration.connectionLimit)
    }

    func finishedRequest() { inFlight.subtract(1, ordering: .releasing) }
}
