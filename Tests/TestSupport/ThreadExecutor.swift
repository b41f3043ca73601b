import Foundation
import Synchronization

/// A `TaskExecutor` with a thread of its own: what runs on it neither waits behind nor holds up
/// the work on Swift's cooperative pool (two threads on two cores, shared by every test of the
/// process).
///
/// Tasks that prefer it (`Task(executorPreference:)`, `withTaskExecutorPreference`) run their
/// nonisolated code here. A job that arrives after `stop()` runs on the global pool instead, so
/// a task that outlives the executor's use still ends.
public final class ThreadExecutor: TaskExecutor {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var stopped = false
    }

    private let queue = Mutex(Queue())
    private let pending = DispatchSemaphore(value: 0)

    /// Starts the thread, named `name` (what a debugger shows; 15 bytes at most on Linux).
    public init(name: String) {
        let thread = Thread { [self] in
            Thread.current.name = name  // on Linux, only the thread itself can name itself
            run()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let accepted = queue.withLock { queue in
            if !queue.stopped { queue.jobs.append(unowned) }
            return !queue.stopped
        }
        if accepted {
            pending.signal()
        } else {
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
        }
    }

    /// Ends the thread once the jobs queued so far have run; later jobs go to the global pool.
    public func stop() {
        queue.withLock { $0.stopped = true }
        pending.signal()
    }

    private func run() {
        while true {
            pending.wait()  // this thread is the executor's own: it may block
            let (job, stopped) = queue.withLock { queue -> (UnownedJob?, Bool) in
                (queue.jobs.isEmpty ? nil : queue.jobs.removeFirst(), queue.stopped)
            }
            if let job {
                job.runSynchronously(on: asUnownedTaskExecutor())
            } else if stopped {
                return
            }
        }
    }
}
