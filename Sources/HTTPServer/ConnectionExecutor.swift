import CMicroHTTPD
import Synchronization

/// Runs one request's handler on the libmicrohttpd worker thread that owns its connection.
///
/// The handler starts there, in the access callback that found the request complete, and runs
/// until it first waits. Whoever ends a wait (a reader, the writer's group commit, a hashing
/// thread) only queues the handler's next job here and resumes the connection; the worker runs
/// the job in the access callback that follows, and queues the response as soon as the handler
/// delivers it. So an event takes one thread hand-off to the store and one back, and no thread of
/// Swift's pool is woken to pass the work on.
///
/// The connection is suspended only while nothing is left to run, and `MHD_suspend_connection` is
/// called under the same lock that an enqueuer checks before `MHD_resume_connection`: so a resume
/// always follows its suspend (libmicrohttpd drops a suspend that overtakes a resume, and would then
/// never call back for the request).
final class ConnectionExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        var response: HTTPResponse?
        var suspended = false
    }

    private let connection: ConnectionHandle
    private let state = Mutex(State())

    init(connection: OpaquePointer) {
        self.connection = ConnectionHandle(pointer: connection)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        wakeUp { $0.jobs.append(job) }
    }

    /// Hands the handler's response to the worker.
    func deliver(_ response: HTTPResponse) {
        wakeUp { $0.response = response }
    }

    /// On the worker, in an access callback: runs the handler's queued jobs until it delivers its
    /// response (returned, to be queued) or waits (then the connection is suspended; nil).
    func drain() -> HTTPResponse? {
        while true {
            enum Next {
                case run([UnownedJob])
                case respond(HTTPResponse)
                case wait
            }
            let next = state.withLock { state -> Next in
                if let response = state.response {
                    state.response = nil
                    return .respond(response)
                }
                if !state.jobs.isEmpty {
                    defer { state.jobs = [] }
                    return .run(state.jobs)
                }
                MHD_suspend_connection(connection.pointer)
                state.suspended = true
                return .wait
            }
            switch next {
            case .run(let jobs):
                for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            case .respond(let response):
                return response
            case .wait:
                return nil
            }
        }
    }

    /// The response delivered and not yet queued (its client left first).
    func takeUndelivered() -> HTTPResponse? {
        state.withLock { state in
            defer { state.response = nil }
            return state.response
        }
    }

    /// Changes the state, and resumes the connection if it was suspended.
    private func wakeUp(_ change: (inout State) -> Void) {
        let resume = state.withLock { state in
            change(&state)
            defer { state.suspended = false }
            return state.suspended
        }
        if resume { MHD_resume_connection(connection.pointer) }
    }
}
