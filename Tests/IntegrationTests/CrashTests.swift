import Foundation
import SQLiteStore
import Store
import Synchronization
import TestSupport
import Testing

/// `kill -9` under load loses no acknowledged event and leaves a sound database (SQLite's
/// integrity check; on PostgreSQL the node dies, the database does not).
/// `CRASH_ROUNDS=200 swift test --filter CrashTests` (or `scripts/crash-test 200`) runs longer.
@Suite struct CrashTests {
    /// The last `200` each session got: its version and its State.
    final class Acknowledgements: Sendable {
        let latest = Mutex<[String: (version: Int, state: String)]>([:])
        let count = Atomic<Int>(0)
        /// Load clients still sending.
        let clients = Atomic<Int>(0)

        /// Every client sends events until cancelled or until its server stops answering `200`;
        /// each `200` is recorded.
        func load(_ clients: [SessionClient]) -> Task<Void, Never> {
            self.clients.store(clients.count, ordering: .relaxed)
            return Task {
                await withTaskGroup(of: Void.self) { group in
                    for client in clients {
                        group.addTask {
                            var client = client
                            defer { self.clients.subtract(1, ordering: .relaxed) }
                            while !Task.isCancelled {
                                guard let response = try? await client.send(ConcurrencyTests.nextEvent(for: client)) else { return }
                                if response.status == 200 { self.record(client) } else { return }
                            }
                        }
                    }
                }
            }
        }

        func record(_ client: SessionClient) {
            count.add(1, ordering: .relaxed)
            latest.withLock { latest in
                if client.version > latest[client.id]?.version ?? 0 { latest[client.id] = (client.version, client.stateText) }
            }
        }
    }

    static var rounds: Int { Int(ProcessInfo.processInfo.environment["CRASH_ROUNDS"] ?? "") ?? 20 }

    @Test(arguments: Backend.allCases) func killNineLosesNoAcknowledgedEvent(backend: Backend) async throws {
        let path = try await backend.newDatabase()
        var server = try await ServerProcess.start(databasePath: path)
        var clients: [SessionClient] = []
        for _ in 0..<16 { clients.append(try await SessionClient.create(port: server.port)) }
        let acknowledged = Acknowledgements()
        for client in clients { acknowledged.record(client) }
        var generator = SystemRandomNumberGenerator()

        for round in 0..<Self.rounds {
            let load = acknowledged.load(clients)
            // Kill at a random point of the load, measured in acknowledged events, not in time
            // (or as soon as every client stopped, which the checks below then report).
            let target = acknowledged.count.load(ordering: .relaxed) + Int.random(in: 20...200, using: &generator)
            try await waitUntil("\(target) acknowledged events, or every client stopped") {
                acknowledged.count.load(ordering: .relaxed) >= target || acknowledged.clients.load(ordering: .relaxed) == 0
            }
            try await server.stop(signal: SIGKILL)
            load.cancel()
            try await load.value("the load to stop")

            // A COMMIT the dead server sent may still land (see `MultiNodeTests.waitForTransactionsToEnd`).
            if backend == .postgresql { try await MultiNodeTests.waitForTransactionsToEnd(path) }
            if backend == .sqlite {
                let check = try SQLiteConnection(path: path)
                #expect(try check.queryFirst("PRAGMA integrity_check") { $0.string(0) } == "ok", "round \(round)")
            }

            server = try await ServerProcess.start(databasePath: path)
            for index in clients.indices {
                clients[index] = clients[index].moved(to: server.port)
                let response = try await clients[index].refresh()
                #expect(response.status == 200)
                let acked = try #require(acknowledged.latest.withLock { $0[clients[index].id] })
                #expect(clients[index].version >= acked.version, "round \(round): \(clients[index].id) lost an acknowledged event")
                if clients[index].version == acked.version {
                    #expect(SessionClient.parse(clients[index].stateText) as NSDictionary == SessionClient.parse(acked.state) as NSDictionary)
                }
                acknowledged.record(clients[index])
            }
        }
        try await server.stop()
        // The load really ran: many more acknowledged events than sessions checked.
        #expect(acknowledged.count.load(ordering: .relaxed) > Self.rounds * clients.count * 2)
    }
}
