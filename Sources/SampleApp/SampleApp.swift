@_exported import SignInKit  // its screens are the sample app's (tests and clients name them)
import Foundation
import Navigation
import Store

/// The app coordinatord ships: the sign-in kit (sign-in, registration, settings), main tabs, posts.
public enum SampleApp {
    /// The app's name; its migrations are recorded under it.
    public static let name = "sample"

    /// The migrations of the app's tables (users, posts) for `dialect`: its `Migrations` folder,
    /// built into the module (the EmbedFiles plugin), so no resource bundle has to travel beside
    /// the binary; then the sign-in kit's (its `users` table and `AccountProtection`'s throttles and
    /// device credentials, which the app's own migrations made before the kit and that module
    /// existed: they stay, and the kit's keep the tables they find).
    public static func migrations(for dialect: SQLDialect) throws -> [Migration] {
        try Migration.load(files: EmbeddedFiles.files(in: "Migrations/" + dialect.rawValue), scope: name)
            + SignInKit.migrations(for: dialect)
    }

    public static let navigation = NavigationApp(
        displayName: "Chirp", screens: Screens.all,
        coordinators: [AppCoordinator.self, MainCoordinator.self, HomeCoordinator.self, ProfileCoordinator.self]
            + SignInKit.coordinators(links: AppRoute.self),
        // A user exists while their row does: checked with each event's write, at no read's cost.
        userTable: SignInKit.userTable,
        links: Links(AppRoute.self), root: { _ in AppCoordinator() }
    )
    .translated(translations)
}
