import Navigation
import Store
import Secrets

/// Tunables of the session service.
package struct SessionConfiguration: Sendable {
    /// Seconds without a request after which a session expires and its token dies.
    package var idleTimeoutSeconds: Int64
    /// Sessions kept in memory at most; the least recently used idle ones leave first.
    package var maxResidentSessions: Int
    /// Seconds an answer to an `Idempotency-Key` is kept for replay.
    package var idempotencyRetentionSeconds: Int64
    /// Answers kept per session for replay; past it the oldest go first.
    package var maxIdempotencyKeysPerSession: Int
    /// Bytes a session's snapshot may take; an event that would grow it past that gets `422`.
    package var maxSnapshotBytes: Int
    /// The time sessions expire by.
    package var clock: ServiceClock

    package init(
        idleTimeoutSeconds: Int64 = 7 * 24 * 3600, maxResidentSessions: Int = 100_000,
        idempotencyRetentionSeconds: Int64 = 24 * 3600, maxIdempotencyKeysPerSession: Int = 64,
        maxSnapshotBytes: Int = 128 * 1024, clock: ServiceClock = .system
    ) {
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.maxResidentSessions = maxResidentSessions
        self.idempotencyRetentionSeconds = idempotencyRetentionSeconds
        self.maxIdempotencyKeysPerSession = maxIdempotencyKeysPerSession
        self.maxSnapshotBytes = maxSnapshotBytes
        self.clock = clock
    }
}

/// What a flow may know of the request that carries an event.
public struct RequestInfo: Sendable {
    /// The client's IP address (for per-address throttling).
    public let clientAddress: String
    /// Seconds since 1970.
    public let now: Int64
    /// The `Device-Token` the client sent with the event, if any: a credential a flow gave this
    /// device in an earlier answer (`Context.giveDeviceToken`). Unverified: the app checks it.
    public var deviceToken: String? = nil
}

/// Builds the environment coordinators see for one event: models bound to the writer's
/// connection (so their mutations commit with the snapshot), prepared password work, the request.
public typealias EnvironmentFactory = @Sendable (any SQLConnection, PreparedPasswords, RequestInfo) -> Environment
