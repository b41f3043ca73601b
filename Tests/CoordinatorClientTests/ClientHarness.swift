import CoordinatorClient
import Foundation
import Synchronization
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client's real transport (URLSession to the real server), recording each request and
/// able to lose answers: the request reaches the server and is applied, and the client is told
/// the connection dropped, as a phone that loses its network right after sending would be.
final class LossyTransport: HTTPTransport {
    private let inner = URLSessionTransport()
    private struct Book {
        var sent: [HTTPRequest] = []
        var answersToLose = 0
        var lost: [HTTPResponse] = []
    }
    private let book = Mutex(Book())

    /// Loses the answers to the next `count` requests (after the server answered them).
    func loseNextAnswers(_ count: Int = 1) { book.withLock { $0.answersToLose = count } }

    /// Every request sent, in order.
    var sent: [HTTPRequest] { book.withLock { $0.sent } }
    /// The answers lost on purpose.
    var lost: [HTTPResponse] { book.withLock { $0.lost } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        book.withLock { $0.sent.append(request) }
        let response = try await inner.send(request)
        let lose = book.withLock { book -> Bool in
            guard book.answersToLose > 0 else { return false }
            book.answersToLose -= 1
            book.lost.append(response)
            return true
        }
        if lose { throw URLError(.networkConnectionLost) }
        return response
    }
}

/// The client's sleep: records each wait and returns at once, after running `onSleep` (which
/// moves the server's clock or restarts it), so no test waits for real time.
final class RecordedSleeps: Sendable {
    private let waits = Mutex<[Duration]>([])
    private let onSleep: @Sendable (Duration) async throws -> Void

    init(onSleep: @escaping @Sendable (Duration) async throws -> Void = { _ in }) { self.onSleep = onSleep }

    var recorded: [Duration] { waits.withLock { $0 } }

    func sleep(_ duration: Duration) async throws {
        waits.withLock { $0.append(duration) }
        try await onSleep(duration)
    }
}

/// A client of `port` with a lossy transport, recorded sleeps and its own credential store.
struct ClientHarness {
    let client: CoordinatorSession
    let transport: LossyTransport
    let sleeps: RecordedSleeps
    let store: InMemoryCredentialStore

    init(
        port: UInt16, platform: CoordinatorSession.Platform = .phone, store: InMemoryCredentialStore = InMemoryCredentialStore(),
        retry: RetryPolicy = RetryPolicy(), onSleep: @escaping @Sendable (Duration) async throws -> Void = { _ in }
    ) {
        transport = LossyTransport()
        sleeps = RecordedSleeps(onSleep: onSleep)
        self.store = store
        let sleeps = self.sleeps
        client = CoordinatorSession(
            configuration: .init(
                baseURL: URL(string: "http://127.0.0.1:\(port)")!, platform: platform, retry: retry,
                sleep: { try await sleeps.sleep($0) }),
            store: store, transport: transport)
    }
}

/// Steps of the sample app used by several tests.
enum Steps {
    static let password = Journey.password
    static let newPassword = "a brand new passphrase 2026"

    /// The top screen's name.
    static func top(_ client: CoordinatorSession) async -> String? { await client.state?.topScreen?.name }

    /// Registers from `firstRun`; the session ends signed in on the timeline.
    static func register(_ client: CoordinatorSession, email: String, displayName: String = "Ada") async throws {
        try await client.send("signUp")
        try await client.send("next", payload: ["email": .string(email)])
        try await client.send("next", payload: ["password": .string(password)])
        try await client.send("finish", payload: ["displayName": .string(displayName)])
    }

    /// Opens settings from the timeline.
    static func openSettings(_ client: CoordinatorSession) async throws {
        try await client.perform(.selectTab("profile"))
        try await client.send("openSettings")
    }
}

extension HTTPRequest {
    /// A header by name, whatever its case.
    func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name.lowercased() }?.value }
}
