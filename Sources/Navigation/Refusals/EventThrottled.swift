/// Thrown by a flow that refuses an event for now (too many failed sign-ins from one account
/// or address). The host answers `429` with `Retry-After`; nothing changes.
public struct EventThrottled: Error, Sendable, Hashable {
    /// Seconds until the client may try again (`Retry-After`).
    public let retryAfterSeconds: Int
    /// The problem's `detail`.
    public let detail: String

    /// A refusal for `retryAfterSeconds`, saying `detail`.
    public init(retryAfterSeconds: Int, detail: String) {
        self.retryAfterSeconds = retryAfterSeconds
        self.detail = detail
    }
}
