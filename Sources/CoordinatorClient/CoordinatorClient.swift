import Foundation

/// A native shell's client of one coordinatord session: it creates or resumes the session, keeps
/// its token in the app's `CredentialStore`, sends what the user did on the top screen, and
/// publishes each new State for the shell to render (`state`, `states()`).
///
/// Calls that touch the session run one at a time, in call order (the server applies a session's
/// events in arrival order too): a tap sent while another is under way is sent after it.
///
/// Every State the client learns of goes through `adopt(_:)`: answers to events, reads, the State
/// a stale tap's `409` or a `412` carries, and (a seam for the live stream) States from elsewhere.
/// An older State than the one held is ignored, so a late answer never rolls the screen back.
public actor CoordinatorSession {
    /// What a client is pointed at, and how it waits.
    public struct Configuration: Sendable {
        /// The server (`https://api.example.com`); paths are appended to it.
        public var baseURL: URL
        /// What the device is, for flows that differ by platform (a one-form registration on tablets).
        public var platform: Platform
        public var retry: RetryPolicy
        /// Waits between attempts; a test injects one that returns at once (or moves a clock).
        public var sleep: @Sendable (Duration) async throws -> Void
        /// Makes one `Idempotency-Key` per event (1–200 visible ASCII characters); a UUID by default.
        public var makeIdempotencyKey: @Sendable () -> String

        public init(
            baseURL: URL, platform: Platform = .phone, retry: RetryPolicy = RetryPolicy(),
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
            makeIdempotencyKey: @escaping @Sendable () -> String = { UUID().uuidString }
        ) {
            (self.baseURL, self.platform, self.retry) = (baseURL, platform, retry)
            (self.sleep, self.makeIdempotencyKey) = (sleep, makeIdempotencyKey)
        }
    }

    /// The device kind a session is created for.
    public enum Platform: String, Sendable, Codable {
        case phone, tablet, web
    }

    public let configuration: Configuration
    let store: any CredentialStore
    let transport: any HTTPTransport

    /// The State the shell shows now: nil until `start()` succeeds.
    public internal(set) var state: SessionState?
    /// The credentials as last loaded or saved.
    public internal(set) var credentials = Credentials()
    /// The link the last event's answer said it dropped (a link kept across sign-in that could no
    /// longer be opened: the post was deleted meanwhile), for the shell to tell its user; nil when
    /// the last answer dropped none.
    public internal(set) var droppedLink: DroppedLink?
    var cachedCatalog: Catalog?
    private var observers: [UUID: AsyncStream<SessionState>.Continuation] = [:]
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(
        configuration: Configuration, store: any CredentialStore = InMemoryCredentialStore(),
        transport: any HTTPTransport = URLSessionTransport()
    ) {
        (self.configuration, self.store, self.transport) = (configuration, store, transport)
    }

    /// A client of the server at `baseURL`, keeping credentials in memory.
    public init(baseURL: URL, platform: Platform = .phone) {
        self.init(configuration: Configuration(baseURL: baseURL, platform: platform))
    }

    // MARK: States

    /// Each State the client adopts from now on, starting with the current one (if any). A slow
    /// reader sees the newest only: a shell renders the latest State, not every step to it.
    public func states() -> AsyncStream<SessionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionState.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        observers[id] = continuation
        if let state { continuation.yield(state) }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    private func removeObserver(_ id: UUID) { observers[id] = nil }

    /// Makes `new` the current State unless it is older than the one held (of the same session).
    /// Returns whether it was adopted. A live stream hands its frames here.
    @discardableResult
    public func adopt(_ new: SessionState) -> Bool {
        if let state, state.id == new.id, new.version <= state.version { return false }
        state = new
        for continuation in observers.values { continuation.yield(new) }
        return true
    }

    // MARK: One call at a time

    /// Runs `body` after every call before it has finished; a call cancelled while it waited
    /// for its turn sends nothing.
    func serialized<T>(_ body: () async throws -> T) async throws -> T {
        if busy {
            await withCheckedContinuation { waiters.append($0) }
        } else {
            busy = true
        }
        // Hands the turn to the next waiter, or frees it.
        defer { if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() } }
        try Task.checkCancellation()
        return try await body()
    }

    // MARK: Credentials

    /// Saves `credentials` in the store before anything uses them.
    func keep(_ credentials: Credentials) async throws {
        self.credentials = credentials
        try await store.save(credentials)
    }

    /// Forgets the session (its token is dead); the device token stays.
    func forgetSession() async {
        var credentials = self.credentials
        credentials.session = nil
        // The session is gone either way; a store that fails now is asked again on the next save.
        try? await keep(credentials)
    }
}
