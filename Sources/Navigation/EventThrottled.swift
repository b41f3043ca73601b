/// Thrown by a flow that refuses an event for now (too many failed sign-ins from one account
/// or address). The host answers `429` with `Retry-After`; nothing changes.
public struct EventThrottled: Error, Sendable, Hashable {
    public let retryAfterSeconds: Int
    public let detail: String

    public init(retryAfterSeconds: Int, detail: String) {
        self.retryAfterSeconds = retryAfterSeconds
        self.detail = detail
    }
}
