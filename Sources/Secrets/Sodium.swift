import CSodium

/// libsodium must be initialised once before any other call; `sodium_init` is idempotent and thread-safe.
enum Sodium {
    static let ready: Bool = {
        sodium_init() >= 0
    }()

    static func ensureReady() {
        precondition(ready, "libsodium failed to initialise")
    }
}
