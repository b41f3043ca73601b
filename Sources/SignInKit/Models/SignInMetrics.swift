import Metrics

/// What the kit counts for `/metrics`, beside what the session service counts.
enum SignInMetrics {
    static func signInFailed() {
        Counter(label: "coordinatord_sign_in_failures_total").increment()
    }
}
