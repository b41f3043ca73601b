import Foundation
import Navigation
import Store

/// The app coordinatord ships: sign-in, multi-step registration, main tabs, posts, settings.
public enum SampleApp {
    /// The app's name; its migrations are recorded under it.
    public static let name = "sample"

    /// The migrations of the app's tables (users, posts, throttles) for `dialect`: its
    /// `Migrations` folder, built into the module (the EmbedFiles plugin), so no resource bundle
    /// has to travel beside the binary.
    public static func migrations(for dialect: SQLDialect) throws -> [Migration] {
        try Migration.load(files: EmbeddedFiles.files(in: "Migrations/" + dialect.rawValue), scope: name)
    }

    public static let navigation = NavigationApp(
        screens: Screens.all,
        coordinators: [
            AppCoordinator.self, AuthCoordinator.self, RegistrationCoordinator.self, TabletRegistrationCoordinator.self,
            MainCoordinator.self, HomeCoordinator.self, ProfileCoordinator.self, SettingsCoordinator.self,
        ],
        userExists: { user, environment in try environment.require(AppModels.self).users.find(id: user.id) != nil },
        root: { _ in AppCoordinator() })
}
