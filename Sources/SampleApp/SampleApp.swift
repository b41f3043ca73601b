import Foundation
import Navigation
import Store

/// The app coordinatord ships: sign-in, multi-step registration, main tabs, posts, settings.
public enum SampleApp {
    /// The app's name; its migrations are recorded under it.
    public static let name = "sample"

    /// The migrations of the app's tables (users, posts, throttles) for `dialect`, shipped in
    /// its `Migrations` folder.
    public static func migrations(for dialect: SQLDialect) throws -> [Migration] {
        try Migration.load(from: Bundle.module, scope: name, dialect: dialect)
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
