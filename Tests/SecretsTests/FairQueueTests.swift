import Synchronization
import TestSupport
import Testing

@testable import Secrets

/// The hash pool takes waiting jobs in turn by client, so one client's queue does not delay
/// another's job by more than one of its own.
@Suite struct FairQueueTests {

    /// The clients whose jobs ran, in the order they ran.
    final class RunOrder: Sendable {
        let clients = Mutex<[String]>([])
    }

    /// Client a queues four jobs, then client b one, into a held pool with one thread: b's job
    /// runs second, not fifth as it did first in, first out.
    @Test func aClientsJobWaitsForAtMostOneOfAnothersJobs() async throws {
        let pool = PasswordHashPool(hasher: SecretsTests.fast, concurrency: 1, maxQueued: 8)
        pool.pause()
        let order = RunOrder()
        var tasks: [Task<Void, any Error>] = []
        for (index, client) in ["a", "a", "a", "a", "b"].enumerated() {
            tasks.append(
                Task {
                    try await PasswordHashPool.$client.withValue(client) {
                        try await pool.run { order.clients.withLock { $0.append(client) } }
                    }
                })
            try await waitUntil("the pool to hold \(index + 1) jobs (\(pool.statistics.waiting))") {
                pool.statistics.waiting >= index + 1
            }
        }
        pool.resume()
        for task in tasks { try await task.value }
        #expect(order.clients.withLock { $0 } == ["a", "b", "a", "a", "a"])
        #expect(pool.statistics.started == 5)
    }
}
