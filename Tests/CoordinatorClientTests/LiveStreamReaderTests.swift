import CoordinatorClient
import Foundation
import Synchronization
import TestSupport
import Testing

/// `CoordinatorSession.live()` against the real binary, on Linux (a socket transport: Linux's
/// `URLSession` hands a body over only once it closed): other devices' States arrive and are
/// adopted, a restart is ridden out with `Last-Event-ID`, this client's own sign-in is followed,
/// and a sign-out elsewhere ends it with its reason.
@Suite struct LiveStreamReaderTests {
    /// What a live stream reported, read on a task of its own.
    final class Reader: Sendable {
        private final class Log: Sendable {
            let updates = Mutex<[LiveUpdate]>([])
            let ending = Mutex<(any Error)?>(nil)
        }
        private let log: Log
        let task: Task<Void, Never>

        init(_ stream: AsyncThrowingStream<LiveUpdate, any Error>) {
            let log = Log()
            self.log = log
            task = Task {
                do {
                    for try await update in stream { log.updates.withLock { $0.append(update) } }
                } catch {
                    log.ending.withLock { $0 = error }
                }
            }
        }

        var versions: [Int] {
            log.updates.withLock { $0.compactMap { if case .state(let state) = $0 { state.version } else { nil } } }
        }
        var reconnects: Int {
            log.updates.withLock { $0.filter { if case .reconnecting = $0 { true } else { false } }.count }
        }
        var ended: (any Error)? { log.ending.withLock { $0 } }
    }

    /// The platform's stream transport, recording each request it opens.
    final class RecordingStreams: StreamTransport {
        private let inner = defaultStreamTransport()
        private let opened = Mutex<[HTTPRequest]>([])
        var requests: [HTTPRequest] { opened.withLock { $0 } }

        func open(_ request: HTTPRequest, idleTimeout: Duration) async throws -> StreamResponse {
            opened.withLock { $0.append(request) }
            return try await inner.open(request, idleTimeout: idleTimeout)
        }
    }

    /// A second device on `client`'s session (its credentials copied).
    static func secondDevice(of harness: ClientHarness, port: UInt16, onSleep: @escaping @Sendable (Duration) async throws -> Void = { _ in })
        async throws -> ClientHarness
    {
        let store = InMemoryCredentialStore()
        try await store.save(try await harness.store.load())
        let device = ClientHarness(port: port, store: store, onSleep: onSleep)
        try await device.client.start()
        return device
    }

    @Test func anotherDevicesStatesArriveAndAreAdopted() async throws {
        let server = try await ServerProcess.start()
        let phone = ClientHarness(port: server.port)
        try await phone.client.start()
        try await Steps.register(phone.client, email: "live@example.com")
        let tablet = try await Self.secondDevice(of: phone, port: server.port)
        let reader = Reader(tablet.client.live())

        try await phone.client.send("compose")
        let composed = try #require(await phone.client.state)
        try await waitUntil("the tablet to see the compose") { reader.versions.contains(composed.version) }
        #expect(await tablet.client.state == composed, "adopted: the client's state is the stream's")
        try await phone.client.send("submit", payload: ["text": "Seen live"])
        let posted = try #require(await phone.client.state)
        try await waitUntil("the tablet to see the post") { reader.versions.last == posted.version }
        #expect(reader.versions == reader.versions.sorted() && Set(reader.versions).count == reader.versions.count)
        #expect(reader.ended == nil)
        reader.task.cancel()
        try await server.stop()
    }

    @Test func aRestartIsRiddenOutAndTheStreamResumesWhereItWas() async throws {
        let databasePath = ServerProcess.temporaryDatabasePath()
        let port = try FreePort.outsideTheEphemeralRange()
        let restarter = RestartAndBackoffTests.Restarter(databasePath: databasePath, port: port)
        let first = try await restarter.launch()
        let phone = ClientHarness(port: port)
        try await phone.client.start()
        try await Steps.register(phone.client, email: "restart-live@example.com")
        // The tablet's first wait brings the server back (it returns once the server listens),
        // so its next attempt connects: no wall-clock wait.
        let tablet = try await Self.secondDevice(of: phone, port: port) { _ in try await restarter.restartOnce() }
        let streams = RecordingStreams()
        let reader = Reader(tablet.client.live(transport: streams))
        try await phone.client.send("compose")
        let composed = try #require(await phone.client.state).version
        try await waitUntil("the tablet to see the compose") { reader.versions.last == composed }

        try await first.stop()  // its streams end with `server-draining`: reconnect at once, then wait
        try await waitUntil("the tablet to try again") { reader.reconnects >= 1 }
        try await waitUntil("the server to be back") { restarter.server != nil }
        try await phone.client.send("submit", payload: ["text": "After the restart"])
        let posted = try #require(await phone.client.state).version
        try await waitUntil("the tablet to see the post") { reader.versions.last == posted }
        // Resumed from its version: nothing shown twice, nothing skipped that it had to show.
        #expect(reader.versions == [composed, posted])
        #expect(streams.requests.count >= 2)
        #expect(streams.requests.last?.header("Last-Event-ID") == "\(composed)", "the reconnect resumed from the State held")
        reader.task.cancel()
        try await restarter.server?.stop()
    }

    @Test func thisClientsOwnSignInIsFollowedAndASignOutElsewhereEndsIt() async throws {
        let server = try await ServerProcess.start()
        let phone = ClientHarness(port: server.port)
        try await phone.client.start()
        try await Steps.register(phone.client, email: "rotate@example.com")
        try await Steps.openSettings(phone.client)
        try await phone.client.send("signOut")

        let reader = Reader(phone.client.live())
        try await phone.client.send("logIn")
        // Signing in here rotates this client's token: the stream follows it. (This client's own
        // States come with its answers; the stream reports what is new to it: another device's.)
        try await phone.client.send("submit", payload: ["email": "rotate@example.com", "password": .string(Steps.password)])
        let tablet = try await Self.secondDevice(of: phone, port: server.port)
        try await tablet.client.send("compose")
        let composed = try #require(await tablet.client.state).version
        try await waitUntil("the stream to follow the sign-in") { reader.versions.last == composed }
        #expect(await phone.client.state?.version == composed)
        #expect(reader.ended == nil)

        // Another device of the session signs out: this client's token is dead, the stream ends.
        try await tablet.client.send("cancel")
        try await Steps.openSettings(tablet.client)
        try await tablet.client.send("signOut")
        try await waitUntil("the stream to end") { reader.ended != nil }
        #expect((reader.ended as? LiveStreamEnded)?.reason == "signed-out")
        try await server.stop()
    }

    @Test func aSilentConnectionIsGivenUpAndReopened() async throws {
        // Heartbeats a minute apart, a client that waits 1 s: the silence ends the connection.
        let server = try await ServerProcess.start(arguments: ["--stream-heartbeat", "60"])
        // Its waits return at once: the server is up, so the reopened stream connects.
        let phone = ClientHarness(port: server.port)
        try await phone.client.start()
        let reader = Reader(phone.client.live(idleTimeout: .seconds(1)))
        try await waitUntil("the silent stream to be reopened") { reader.reconnects >= 1 }
        let tablet = try await Self.secondDevice(of: phone, port: server.port)
        try await tablet.client.send("logIn")
        let version = try #require(await tablet.client.state).version
        try await waitUntil("the reopened stream to deliver") { reader.versions.last == version }
        reader.task.cancel()
        try await server.stop()
    }
}
