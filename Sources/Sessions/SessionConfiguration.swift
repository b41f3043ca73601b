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
    /// Seconds without a request after which a session that has had no event yet expires
    /// (never more than `idleTimeoutSeconds`): an unused session costs little and lives briefly.
    package var unusedTimeoutSeconds: Int64
    /// Sessions one client (address, or IPv6 /64) may create per minute, twice that at once; 0: no limit.
    package var sessionsPerMinute: Int
    /// Password jobs (waiting or running) one client may have at once; past that `429`.
    package var passwordJobsPerClient: Int
    /// Rows the sweep deletes per statement and transaction, so that events commit in between.
    package var sweepBatchSize: Int
    /// The time sessions expire by.
    package var clock: ServiceClock
    /// Whether and how each session's journal is kept.
    package var journal = JournalSettings()
    /// Live streams at most per session, per client and on this node.
    package var streamLimits: LiveHub.Limits
    /// How long a node holds an effect it runs before another node may take it over (on a shared
    /// store: the node may have died); a handler that runs longer may run twice.
    package var effectLeaseSeconds: Int64 = 60

    package init(
        idleTimeoutSeconds: Int64 = 7 * 24 * 3600, maxResidentSessions: Int = 100_000,
        idempotencyRetentionSeconds: Int64 = 24 * 3600, maxIdempotencyKeysPerSession: Int = 64,
        maxSnapshotBytes: Int = 128 * 1024, unusedTimeoutSeconds: Int64 = 600, sessionsPerMinute: Int = 60,
        passwordJobsPerClient: Int = 4, sweepBatchSize: Int = 500, clock: ServiceClock = .system,
        streamLimits: LiveHub.Limits = LiveHub.Limits()
    ) {
        self.streamLimits = streamLimits
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.maxResidentSessions = maxResidentSessions
        self.idempotencyRetentionSeconds = idempotencyRetentionSeconds
        self.maxIdempotencyKeysPerSession = maxIdempotencyKeysPerSession
        self.maxSnapshotBytes = maxSnapshotBytes
        self.unusedTimeoutSeconds = unusedTimeoutSeconds
        self.sessionsPerMinute = sessionsPerMinute
        self.passwordJobsPerClient = passwordJobsPerClient
        self.sweepBatchSize = sweepBatchSize
        self.clock = clock
    }

    /// This configuration with effects leased for `seconds`.
    package func leasingEffects(for seconds: Int64) -> SessionConfiguration {
        var configuration = self
        configuration.effectLeaseSeconds = seconds
        return configuration
    }

    /// Seconds a session at `version` lives without a request: version 1 has had no event yet.
    func timeout(atVersion version: Int) -> Int64 {
        version > 1 ? idleTimeoutSeconds : min(idleTimeoutSeconds, unusedTimeoutSeconds)
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
    /// The language the client asked for (`Accept-Language`), among the app's; nil when it
    /// named none (the app's source language then).
    public var language: String? = nil

    package init(clientAddress: String, now: Int64, deviceToken: String? = nil, language: String? = nil) {
        self.clientAddress = clientAddress
        self.now = now
        self.deviceToken = deviceToken
        self.language = language
    }
}

/// Builds the environment coordinators see for one event: models bound to the writer's
/// connection (so their mutations commit with the snapshot), prepared password work, the request.
public typealias EnvironmentFactory = @Sendable (any SQLConnection, PreparedPasswords, RequestInfo) -> Environment
