import Store

/// Protections an app's accounts opt into: `FailureThrottle` (password guessing), `RateLimiter`
/// (per-client rates), `DeviceCredentials` (the owner's devices past a lockout), `EmailAddress`
/// (comparison keys that see through look-alikes) and `EmailBounds`; keys a client chose are
/// stored hashed (`StoredKey`). Their counts live in the app's database, so they hold across every
/// node that shares it.
///
/// An app that uses the throttles, the limiter or the device credentials includes this module's
/// migrations after its own:
///
/// ```swift
/// migrations: { try MyApp.migrations(for: $0) + AccountProtection.migrations(for: $0) }
/// ```
///
/// They are recorded under their own scope, `account-protection`, and create their tables only
/// where they are missing, so an app whose own earlier migrations made them keeps its tables.
public enum AccountProtection {
    /// The scope this module's migrations are recorded under.
    public static let scope = "account-protection"

    /// The migrations of the tables `throttle_failures`, `rate_buckets` and `device_credentials`
    /// for `dialect`, built into the module (the EmbedFiles plugin).
    public static func migrations(for dialect: SQLDialect) throws -> [Migration] {
        try Migration.load(files: EmbeddedFiles.files(in: "Migrations/" + dialect.rawValue), scope: scope)
    }
}
