import AccountProtection

/// The kit's throttles: failed sign-ins, failed password re-checks, and registration attempts;
/// and the device credentials that let the owner's devices past an account's lockout.
public struct AccountGuards: Sendable {
    public let signIns: FailureThrottle
    public let passwordChecks: FailureThrottle
    public let registrations: RateLimiter
    public let devices: DeviceCredentials

    /// - Parameter registrationsPerMinute: registration tries one client may make per minute
    ///   (twice that at once): each e-mail step, password step and one-form registration,
    ///   whatever the answer ("already registered" included).
    public init(registrationsPerMinute: Int = 10) {
        let perMinute = Int64(max(1, registrationsPerMinute))
        self.init(
            signIns: FailureThrottle(subject: "sign-ins"), passwordChecks: FailureThrottle(subject: "password checks"),
            registrations: RateLimiter(
                subject: "registration attempts", capacity: 2 * perMinute, refillSeconds: max(1, 60 / perMinute)))
    }

    public init(
        signIns: FailureThrottle, passwordChecks: FailureThrottle, registrations: RateLimiter,
        devices: DeviceCredentials = DeviceCredentials()
    ) {
        self.signIns = signIns
        self.passwordChecks = passwordChecks
        self.registrations = registrations
        self.devices = devices
    }
}
