import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

/// libmicrohttpd's callbacks. They run on the worker thread that owns the connection.
enum MHDCallbacks {
    /// The access handler: called once when the headers are in, once per body chunk, and once more
    /// when the body is complete (and again after a resume).
    static func access(
        core: ServerCore, connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?, data: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>,
        requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let pointer = requestContext.pointee else {
            return begin(core: core, connection: connection, url: url, method: method, version: version,
                requestContext: requestContext)
        }
        let state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()

        if size.pointee > 0 {
            if state.answered || state.bodyTooLarge {
                // Discard what follows, but not forever: a body far past the limit closes the connection.
                state.discardedBytes += size.pointee
                if state.discardedBytes > 16 * core.limits.maxBodyBytes { return .NO }
            } else if let data {
                if state.body.count + size.pointee > core.limits.maxBodyBytes {
                    // Content-Length was checked against the limit before the body (and chunked bodies
                    // are refused), so this only guards the buffer: drop what we have, discard the rest.
                    state.bodyTooLarge = true
                    state.body = []
                } else {
                    data.withMemoryRebound(to: UInt8.self, capacity: size.pointee) {
                        state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size.pointee))
                    }
                }
            }
            size.pointee = 0
            return .YES
        }

        if state.answered { return .YES }
        if state.bodyTooLarge {
            state.answered = true
            return queue(closing(tooLarge(core)), on: connection, core: core)
        }
        // Resumed: the handler has jobs to run here, or its response.
        if let executor = state.executor { return drain(executor, on: connection, core: core) }
        core.watch.processing(coordinatord_mhd_connection_fd(connection))
        let request = state.request(trusting: core.limits.trustedProxies)
        let executor = ConnectionExecutor(connection: connection)
        state.executor = executor
        core.handlers.started()
        // Its first job is queued on `executor`, and runs in the drain below.
        Task(executorPreference: core.limits.handlerExecutor ?? executor) {
            TaskAllocatorPriming.prime()
            let response = await core.responder.respond(to: request)
            core.handlers.finished(delivered: executor.deliver(response))
        }
        return drain(executor, on: connection, core: core)
    }

    /// Runs the handler's jobs; queues its response once delivered, or leaves the connection
    /// suspended while it waits.
    private static func drain(_ executor: ConnectionExecutor, on connection: OpaquePointer, core: ServerCore)
        -> MHD_Result
    {
        guard let response = executor.drain() else { return .YES }
        return queue(response, on: connection, core: core)
    }

    /// The first call of a request: its headers are in, its body is not read yet. Requests that
    /// must be refused are answered now, so that libmicrohttpd closes the connection unread.
    private static func begin(
        core: ServerCore, connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let state = makeState(core: core, connection: connection, url: url, method: method, version: version)
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        core.inFlight.add(1, ordering: .relaxed)
        core.watch.headersReceived(coordinatord_mhd_connection_fd(connection))
        let refusal: Problem?
        if core.draining.load(ordering: .acquiring) {
            refusal = Problem(.shuttingDown, detail: "The server is shutting down; retry on another connection.")
        } else if let problem = RequestScreening.problem(version: state.version, headers: state.headers) {
            refusal = problem
        } else if let length = state.headers["Content-Length"].flatMap(Int.init), length > core.limits.maxBodyBytes {
            refusal = tooLarge(core)
        } else {
            refusal = nil
        }
        guard let refusal else { return .YES }
        state.answered = true
        return queue(closing(refusal), on: connection, core: core)
    }

    /// The completion callback: the request is done (answered, or the client went away).
    static func completed(
        core: ServerCore, connection: OpaquePointer?, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        termination: MHD_RequestTerminationCode
    ) {
        guard let requestContext, let pointer = requestContext.pointee else { return }
        if let executor = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue().executor {
            // The handler runs on without its connection; a stream whose client left before it
            // was queued never starts: it closes here.
            let answered = termination == .REQUEST_TERMINATED_COMPLETED_OK
            executor.detach(answered: answered, counting: core.handlers)?.eventStream?.closed()
        }
        Unmanaged<RequestState>.fromOpaque(pointer).release()
        requestContext.pointee = nil
        if let connection { core.watch.answered(coordinatord_mhd_connection_fd(connection)) }
        core.finishedRequest()
    }

    /// A connection opened or closed. One whose first bytes cannot be HTTP (a TLS ClientHello on
    /// this plain port) is shut down at once, before libmicrohttpd reads it: it sees the stream
    /// end and closes it, and the watch never counts it.
    static func connectionChanged(core: ServerCore, connection: OpaquePointer?, opened: Bool) {
        guard let connection else { return }
        let socket = coordinatord_mhd_connection_fd(connection)
        guard opened else { return core.watch.closed(socket) }
        if socket >= 0 && FirstBytes.cannotBeHTTP(socket: socket) {
            shutdown(socket, Int32(SHUT_RDWR))
        } else {
            core.watch.opened(socket)
        }
    }

    /// The request line is in (headers not yet parsed). libmicrohttpd stores each query argument
    /// in the connection's fixed memory pool and stalls when it overflows, without calling the
    /// access handler; so a request with too many arguments is answered here, on the socket,
    /// and its connection shut down.
    static func requestLine(core: ServerCore, uri: UnsafePointer<CChar>?, connection: OpaquePointer?) {
        guard let uri, let connection else { return }
        var arguments = 0
        var inQuery = false
        var pointer = uri
        while pointer.pointee != 0 {
            switch UInt8(bitPattern: pointer.pointee) {
            case UInt8(ascii: "?") where !inQuery:
                inQuery = true
                arguments = 1
            case UInt8(ascii: "&") where inQuery: arguments += 1
            default: break
            }
            pointer += 1
        }
        guard arguments > core.limits.maxQueryArguments else { return }
        let socket = coordinatord_mhd_connection_fd(connection)
        guard socket >= 0 else { return }
        let response = closing(
            Problem(.malformedRequest, detail: "The query has more than \(core.limits.maxQueryArguments) arguments."))
        // The socket is idle on our side (libmicrohttpd is still reading), so one small send fits.
        let bytes = response.serializedForRawSocket()
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(socket, Int32(SHUT_RDWR))
    }

    private static func makeState(
        core: ServerCore, connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?
    ) -> RequestState {
        let remoteAddress = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { address in
            coordinatord_mhd_client_address(connection, address.baseAddress!, socklen_t(address.count))
            return String(cString: address.baseAddress!)
        }
        let state = RequestState(
            method: method.map { CommonTexts.string($0, among: CommonTexts.methods) } ?? "GET",
            path: url.map { String(cString: $0) } ?? "/",
            remoteAddress: remoteAddress, version: version.map { CommonTexts.string($0, among: CommonTexts.versions) } ?? "HTTP/1.1")
        let context = Unmanaged.passUnretained(state).toOpaque()
        MHD_get_connection_values(
            connection, .HEADER_KIND,
            { context, _, key, value in
                let state = Unmanaged<RequestState>.fromOpaque(context!).takeUnretainedValue()
                if let key {
                    state.headers.add(
                        CommonTexts.string(key, among: CommonTexts.headerNames),
                        value.map { CommonTexts.string($0, among: CommonTexts.headerValues) } ?? "")
                }
                return .YES
            }, context)
        MHD_get_connection_values(
            connection, .GET_ARGUMENT_KIND,
            { context, _, key, value in
                let state = Unmanaged<RequestState>.fromOpaque(context!).takeUnretainedValue()
                if let key { state.query[String(cString: key)] = value.map { String(cString: $0) } ?? "" }
                return .YES
            }, context)
        return state
    }

    private static func tooLarge(_ core: ServerCore) -> Problem {
        Problem(.contentTooLarge, detail: "The request body exceeds \(core.limits.maxBodyBytes) bytes.")
    }

    /// The problem's response, closing the connection (what is left of the request is never read).
    private static func closing(_ problem: Problem) -> HTTPResponse {
        var response = problem.response
        response.headers.set("Connection", "close")
        return response
    }

    /// Queues `response`; once the server drains, every answer closes its connection.
    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer, core: ServerCore) -> MHD_Result {
        if let stream = response.eventStream { return takeOver(stream, head: response, on: connection, core: core) }
        // libmicrohttpd sends the body from the array's own storage, which the box keeps alive
        // (and unchanged: it holds a `let`) until libmicrohttpd destroys the response. A copy
        // (`RESPMEM_MUST_COPY`) was a large allocation, a copy and a free on every answer.
        let body = ResponseBody(response.body)
        let mhdResponse = body.bytes.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer_with_free_callback_cls(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                { box in Unmanaged<ResponseBody>.fromOpaque(box!).release() }, Unmanaged.passRetained(body).toOpaque())
        }
        guard let mhdResponse else {
            // Not created, so libmicrohttpd never calls the free callback: the retain is ours to undo.
            Unmanaged.passUnretained(body).release()
            return .NO
        }
        defer { MHD_destroy_response(mhdResponse) }
        for field in response.headers {
            // `withCString` lends a native string's own bytes; passing the strings as arguments
            // made a copy of each (`utf8CString`) on every answer.
            field.name.withCString { name in
                field.value.withCString { value in _ = MHD_add_response_header(mhdResponse, name, value) }
            }
        }
        if core.draining.load(ordering: .acquiring) && response.headers["Connection"] == nil {
            MHD_add_response_header(mhdResponse, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    }
}

extension MHDCallbacks {
    /// Sends `stream` on a copy of the connection's socket, past libmicrohttpd: the copy gets the
    /// response head (chunked, `Connection: close`) and then the frames, and `OpenStreams` watches
    /// it. Returns `.NO`, so that libmicrohttpd closes the connection as its own: it frees the
    /// connection's memory pool and closes its descriptor, but the socket stays open through the
    /// copy (the daemon runs with `MHD_USE_TURBO`, so it closes without `shutdown`).
    fileprivate static func takeOver(
        _ stream: EventStream, head response: HTTPResponse, on connection: OpaquePointer, core: ServerCore
    ) -> MHD_Result {
        let socket = coordinatord_mhd_connection_fd(connection)
        let own = socket >= 0 ? fcntl(socket, F_DUPFD_CLOEXEC, 0) : -1
        guard own >= 0 else {
            stream.closed()
            return .NO
        }
        // libmicrohttpd may have left the socket corked: frames must go out as they are written.
        var off: Int32 = 0
        var on: Int32 = 1
        setsockopt(own, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(own, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        // A fixed kernel send buffer instead of Linux's autotuned one (up to megabytes): a reader
        // that stops reading holds at most this much in the kernel, and its frames start to
        // coalesce after a few hundred, not after thousands of stale ones.
        var sendBuffer = Int32(EventStream.socketSendBufferBytes)
        setsockopt(own, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
        guard core.streams.start(stream, socket: own, head: response.streamHead()) else {
            stream.closed()
            return .NO
        }
        // A stream whose handler finished after the drain began ends at once too.
        if core.draining.load(ordering: .acquiring) { OpenStreams.drain(stream) }
        return .NO
    }
}

extension HTTPResponse {
    /// The head of an event stream's response, written past libmicrohttpd: its fields, a `Date`,
    /// a chunked body, and `Connection: close` (the stream holds the connection to its end).
    func streamHead() -> [UInt8] {
        Array((statusAndFields() + "Date: \(Self.httpDate())\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n").utf8)
    }

    /// The status line and the response's own fields, each ending its line.
    private func statusAndFields() -> String {
        var head = "HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n"
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        return head
    }

    /// Now as an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var text = [CChar](repeating: 0, count: 40)
        let count = strftime(&text, text.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: text.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The whole response as HTTP/1.1 bytes, for the one answer written past libmicrohttpd.
    func serializedForRawSocket() -> [UInt8] {
        Array((statusAndFields() + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
    }
}

/// An answer's body while libmicrohttpd sends it: the array whose storage it reads.
private final class ResponseBody {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
