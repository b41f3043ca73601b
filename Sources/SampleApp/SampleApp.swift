import Navigation

/// The app coordinatord ships: sign-in, multi-step registration, main tabs, posts, settings.
public enum SampleApp {
    public static let navigation = NavigationApp(
        screens: Screens.all,
        coordinators: [
            AppCoordinator.self, AuthCoordinator.self, RegistrationCoordinator.self, TabletRegistrationCoordinator.self,
            MainCoordinator.self, HomeCoordinator.self, ProfileCoordinator.self, SettingsCoordinator.self,
        ],
        root: { _ in AppCoordinator() })
}
