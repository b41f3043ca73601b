import AccountProtection
import Navigation
import Store

/// Sign-in, registration and account settings, every app's in a few lines.
///
/// First run, sign-in (Argon2id with a dummy hash for unknown e-mails, failed sign-ins
/// throttled per account and client, device credentials past a lockout), registration in steps
/// or in one form (rate-limited per client, e-mails compared by `EmailAddress.key`), and the
/// account's settings: password change (other sessions end), sign-out, account deletion
/// (every session of the user ends, what they were shown leaves the journals). An app:
///
/// - adds `SignInKit.screens` and `SignInKit.coordinators(links:)` to its `NavigationApp` (or
///   lets it derive them: `SignInCoordinator` and `AccountSettingsCoordinator` declare their
///   screens and children), with `userTable: SignInKit.userTable`;
/// - applies `SignInKit.migrations(for:)` before its own (the `users` table, which its own
///   tables may reference, and the protections' tables);
/// - builds an `AccountServices` at start and adds the kit's models to each event's environment
///   (`services.add(to:…)`);
/// - starts a `SignInCoordinator` where a user must sign in, and an `AccountSettingsCoordinator`
///   where they manage their account, and decides what follows each one's output.
public enum SignInKit {
    /// The scope the kit's migrations are recorded under.
    public static let migrationScope = "signin"

    /// The kit's screens.
    public static let screens: [any ScreenType.Type] = [
        FirstRunScreen.self, LoginScreen.self, SignUpEmailScreen.self, SignUpPasswordScreen.self,
        SignUpProfileScreen.self, SignUpFormScreen.self, SettingsScreen.self, ChangePasswordScreen.self,
        ConfirmDeleteScreen.self,
    ]

    /// The kit's coordinators, for an app whose links are `Links` (`NoLinks` for one without).
    public static func coordinators<Links: SignInRoute>(links: Links.Type) -> [any Coordinator.Type] {
        [
            SignInCoordinator<Links>.self, RegistrationCoordinator.self, FormRegistrationCoordinator.self,
            AccountSettingsCoordinator.self,
        ]
    }

    /// The table a signed-in user's row is in: a session whose user's row is gone is signed out.
    public static let userTable = UserTable("users")

    /// The `users` table (if the app has none yet) and the account protections' tables, for `dialect`.
    public static func migrations(for dialect: SQLDialect) throws -> [Migration] {
        try Migration.load(files: EmbeddedFiles.files(in: "Migrations/" + dialect.rawValue), scope: migrationScope)
            + AccountProtection.migrations(for: dialect)
    }
}
