/// Runs `body` (work that blocks or computes for long: many SQLite writes, thousands of
/// snapshots) on a thread of its own, in the calling task, and returns its result.
///
/// A test body runs on Swift's cooperative pool, two threads on two cores shared by every test
/// of the process; work that holds one for seconds leaves the in-process servers of other tests
/// without a thread to answer on. Here it holds none. Being the same task, its `#expect`s count
/// for the test as usual.
public func onOwnThread<T, Failure: Error>(_ body: () throws(Failure) -> T) async throws(Failure) -> T {
    let executor = ThreadExecutor(name: "test-own-thread")
    defer { executor.stop() }
    return try await withTaskExecutorPreference(executor) { () throws(Failure) -> T in try body() }
}
