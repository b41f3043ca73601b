import Navigation

/// The app coordinatord ships: sign-in, multi-step registration, main tabs, posts, settings.
public enum SampleApp {
    public static let navigation = NavigationApp(
        screens: Screens.all,
        coordinators: [
            AppCoordinator.self, AuthCoordinator.self, RegistrationCoordinator.self, TabletRegistrationCoordinator.self,
            MainCoordinator.self, HomeCoordinator.self, ProfileCoordinator.self, SettingsCoordinator.self,
        ],
        userExists: { user, environment in try environment.require(AppModels.self).users.find(id: user.id) != nil },
        root: { _ in AppCoordinator() })
}
