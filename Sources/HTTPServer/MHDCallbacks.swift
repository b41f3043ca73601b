import CMicroHTTPD

/// libmicrohttpd's callbacks. They run on the worker thread that owns the connection.
enum MHDCallbacks {
    /// The access handler: called once when the headers are in, once per body chunk, and once more
    /// when the body is complete (and again after a resume).
    static func access(
        core: ServerCore, connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        data: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>,
        requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let pointer = requestContext.pointee else {
            let state = begin(connection: connection, url: url, method: method)
            requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
            core.inFlight.add(1, ordering: .relaxed)
            if let length = state.headers["Content-Length"].flatMap(Int.init), length > core.maxBodyBytes {
                // Answer before reading the body; libmicrohttpd then closes the connection unread.
                state.bodyTooLarge = true
                return queue(tooLarge(core), on: connection)
            }
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()

        if size.pointee > 0 {
            if state.bodyTooLarge {
                // Discard what follows, but not forever: a body far past the limit closes the connection.
                state.discardedBytes += size.pointee
                if state.discardedBytes > 16 * core.maxBodyBytes { return .NO }
            } else if let data {
                if state.body.count + size.pointee > core.maxBodyBytes {
                    // A chunked body crossed the limit: drop what we have and discard the rest.
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

        if let response = state.takeResponse() {
            return queue(response, on: connection)
        }
        if state.bodyTooLarge {
            return queue(tooLarge(core), on: connection)
        }
        guard !state.dispatched else { return .YES }
        state.dispatched = true
        let request = state.request
        let handle = ConnectionHandle(pointer: connection)
        core.running.add(1, ordering: .relaxed)
        MHD_suspend_connection(connection)
        Task {
            let response = await core.responder.respond(to: request)
            state.deliver(response)
            MHD_resume_connection(handle.pointer)
            core.running.subtract(1, ordering: .releasing)
        }
        return .YES
    }

    /// The completion callback: the request is done (answered, or the client went away).
    static func completed(core: ServerCore, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let requestContext, let pointer = requestContext.pointee else { return }
        Unmanaged<RequestState>.fromOpaque(pointer).release()
        requestContext.pointee = nil
        core.inFlight.subtract(1, ordering: .releasing)
    }

    private static func begin(connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?)
        -> RequestState
    {
        var address = [CChar](repeating: 0, count: 64)
        coordinatord_mhd_client_address(connection, &address, socklen_t(address.count))
        let state = RequestState(
            method: method.map { String(cString: $0) } ?? "GET",
            path: url.map { String(cString: $0) } ?? "/",
            remoteAddress: String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        let context = Unmanaged.passUnretained(state).toOpaque()
        MHD_get_connection_values(
            connection, .HEADER_KIND,
            { context, _, key, value in
                let state = Unmanaged<RequestState>.fromOpaque(context!).takeUnretainedValue()
                if let key { state.headers.add(String(cString: key), value.map { String(cString: $0) } ?? "") }
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

    private static func tooLarge(_ core: ServerCore) -> HTTPResponse {
        Problem(status: 413, detail: "The request body exceeds \(core.maxBodyBytes) bytes.").response
    }

    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let mhdResponse = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        for field in response.headers {
            MHD_add_response_header(mhdResponse, field.name, field.value)
        }
        return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    }
}
