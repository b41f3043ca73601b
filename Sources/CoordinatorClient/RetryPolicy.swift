/// When the client tries a request again: after a lost answer (a transport error), a `429` or
/// `503`, or a `409 idempotency-key-in-flight`. An event keeps its `Idempotency-Key` across
/// attempts, so a retry never applies it twice.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// The wait before the second attempt when the server named none; doubled for each later one.
    public var initialBackoff: Duration
    /// The longest wait between attempts without a `Retry-After`.
    public var maxBackoff: Duration
    /// The longest `Retry-After` the client waits by itself; a longer one (a throttled sign-in,
    /// say) is thrown at once as the problem, with `retryAfter`, for the shell to show.
    public var maxRetryAfter: Duration

    public init(
        maxAttempts: Int = 5, initialBackoff: Duration = .milliseconds(200), maxBackoff: Duration = .seconds(5),
        maxRetryAfter: Duration = .seconds(30)
    ) {
        (self.maxAttempts, self.initialBackoff, self.maxBackoff) = (maxAttempts, initialBackoff, maxBackoff)
        self.maxRetryAfter = maxRetryAfter
    }

    /// No retries: each request is tried once.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The wait before attempt `attempt + 1` when the server named none (`attempt` counts from 1).
    func backoff(after attempt: Int) -> Duration {
        var wait = initialBackoff
        for _ in 1..<max(attempt, 1) where wait < maxBackoff { wait = wait * 2 }
        return min(wait, maxBackoff)
    }
}
