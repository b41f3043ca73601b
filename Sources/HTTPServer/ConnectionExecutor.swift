import CMicroHTTPD
import Dispatch
import Synchronization

/// Runs one request's handler on the libmicrohttpd worker thread that owns its connection, and on
/// the server's own threads once that connection is gone.
///
/// The handler starts on the worker, in the access callback that found the request complete, and
/// runs until it first waits. Whoever ends a wait (a reader, the writer's group commit, a hashing
/// thread) only queues the handler's next job here and resumes the connection; the worker runs
/// the job in the access callback that follows, and queues the response as soon as the handler
/// delivers it. So an event takes one thread hand-off to the store and one back, and no thread of
/// Swift's pool is woken to pass the work on.
///
/// A client may leave while its handler waits. libmicrohttpd then closes the connection when it
/// is resumed, without another access callback, so jobs queued for it would never run: the
/// handler would keep its session's lock for ever with its commit neither finished nor answered.
/// So the completion callback *detaches* an executor whose handler is still running: its queued
/// jobs, and every job after, run on Dispatch's global pool (which belongs to the process, not to
/// any socket), and the handler runs to its end (commit or rollback, lock released) with no one to
/// answer. Work a request started never depends on its client staying.
///
/// The connection is suspended only while nothing is left to run, and `MHD_suspend_connection` is
/// called under the same lock that an enqueuer checks before `MHD_resume_connection`: so a resume
/// always follows its suspend (libmicrohttpd drops a suspend that overtakes a resume, and would then
/// never call back for the request). libmicrohttpd never closes a suspended connection, and a
/// detached executor is never suspended again, so no resume reaches a connection that is gone.
final class ConnectionExecutor: TaskExecutor {
    private struct State {
        /// The jobs queued, in order. A handler queues one at a time (it runs until it waits), so
        /// the first is kept in place: an array cost an allocation for each job of every request.
        var jobs = QueuedJobs()
        var response: HTTPResponse?
        var suspended = false
        /// The connection is gone: jobs run on the global pool, and a response has no one to go to.
        var detached = false
        /// The handler has delivered its response.
        var delivered = false
        /// That response was an event stream (its connection leaves libmicrohttpd when it starts).
        var deliveredStream = false
    }

    private let connection: ConnectionHandle
    private let state = Mutex(State())

    init(connection: OpaquePointer) {
        self.connection = ConnectionHandle(pointer: connection)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let detached = wakeUp { state in
            if state.detached { return true }
            state.jobs.append(job)
            return false
        }
        if detached { runDetached(QueuedJobs(job)) }
    }

    /// Hands the handler's response to the worker. Returns false when the client left first: the
    /// response goes nowhere (an event stream among them is closed here).
    @discardableResult
    func deliver(_ response: HTTPResponse) -> Bool {
        let detached = wakeUp { state in
            state.delivered = true
            state.deliveredStream = response.eventStream != nil
            if state.detached { return true }
            state.response = response
            return false
        }
        if detached { response.eventStream?.closed() }
        return !detached
    }

    /// On the worker, in an access callback: runs the handler's queued jobs until it delivers its
    /// response (returned, to be queued) or waits (then the connection is suspended; nil).
    func drain() -> HTTPResponse? {
        while true {
            enum Next {
                case run(QueuedJobs)
                case respond(HTTPResponse)
                case wait
            }
            let next = state.withLock { state -> Next in
                if let response = state.response {
                    state.response = nil
                    return .respond(response)
                }
                if !state.jobs.isEmpty { return .run(state.jobs.takeAll()) }
                MHD_suspend_connection(connection.pointer)
                state.suspended = true
                return .wait
            }
            switch next {
            case .run(let jobs):
                jobs.forEach { $0.runSynchronously(on: asUnownedTaskExecutor()) }
            case .respond(let response):
                return response
            case .wait:
                return nil
            }
        }
    }

    /// In the completion callback (the connection is going away): from now on the handler runs on
    /// the global pool. Returns the response delivered and not yet queued, if any. `answered`
    /// says whether libmicrohttpd sent the whole answer; `handlers` counts a client that left
    /// before it (counted before the handler can deliver, so its gauge never goes below zero).
    func detach(answered: Bool, counting handlers: HandlerCounters) -> HTTPResponse? {
        let (jobs, response) = state.withLock { state in
            defer {
                state.response = nil
                state.detached = true
            }
            if !state.delivered {
                handlers.clientLeft()
            } else if !answered && !state.deliveredStream {
                handlers.answerFoundNoClient()
            }
            return (state.jobs.takeAll(), state.response)
        }
        runDetached(jobs)
        return response
    }

    /// Runs `jobs` in order on the global pool, still on behalf of this executor (the task keeps
    /// preferring it, so its later jobs come back to `enqueue`, which sends them on too).
    private func runDetached(_ jobs: QueuedJobs) {
        guard !jobs.isEmpty else { return }
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async {
            jobs.forEach { $0.runSynchronously(on: executor) }
        }
    }

    /// Changes the state, and resumes the connection if it was suspended.
    private func wakeUp<Result>(_ change: (inout State) -> Result) -> Result {
        let (result, resume) = state.withLock { state in
            let result = change(&state)
            defer { state.suspended = false }
            return (result, state.suspended)
        }
        if resume { MHD_resume_connection(connection.pointer) }
        return result
    }
}

/// Jobs in the order they were queued: the first in place, any after it in an array.
private struct QueuedJobs: Sendable {
    private var first: UnownedJob?
    private var rest: [UnownedJob] = []

    init(_ job: UnownedJob? = nil) { first = job }

    var isEmpty: Bool { first == nil }

    mutating func append(_ job: UnownedJob) {
        if first == nil { first = job } else { rest.append(job) }
    }

    /// The jobs, leaving none.
    mutating func takeAll() -> QueuedJobs {
        defer { self = QueuedJobs() }
        return self
    }

    func forEach(_ body: (UnownedJob) -> Void) {
        guard let first else { return }
        body(first)
        rest.forEach(body)
    }
}
