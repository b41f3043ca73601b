import AccountProtection
import Foundation
import Navigation
import Store

/// The app coordinatord ships: sign-in, multi-step registration, main tabs, posts, settings.
public enum SampleApp {
    /// The app's name; its migrations are recorded under it.
    public static let name = "sample"

    /// The migrations of the app's tables (users, posts) for `dialect`: its `Migrations` folder,
    /// built into the module (the EmbedFiles plugin), so no resource bundle has to travel beside
    /// the binary; then those of `AccountProtection` (its throttles and device credentials, whose
    /// tables the app's own migrations 0008 and 0011, on PostgreSQL 0002 and 0005, made before that
    /// module existed: they stay, and the module's keep the tables they find).
    public static func migrations(for dialect: SQLDialect) throws -> [Migration] {
        try Migration.load(files: EmbeddedFiles.files(in: "Migrations/" + dialect.rawValue), scope: name)
            + AccountProtection.migrations(for: dialect)
    }

    public static let navigation = NavigationApp(
        displayName: "Chirp", screens: Screens.all,
        coordinators: [
            AppCoordinator.self, AuthCoordinator.self, RegistrationCoordinator.self, TabletRegistrationCoordinator.self,
            MainCoordinator.self, HomeCoordinator.self, ProfileCoordinator.self, SettingsCoordinator.self,
        ],
        // A user exists while their row does: checked with each event's write, at no read's cost.
        userTable: UserTable("users"),
        links: Links(AppRoute.self), root: { _ in AppCoordinator() })
}
