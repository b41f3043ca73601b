import Metrics

/// What the sample app counts for `/metrics`, beside what the session service counts.
enum AppMetrics {
    static func signInFailed() {
        Counter(label: "coordinatord_sign_in_failures_total").increment()
    }
}
