import CoordinatorApp
import Foundation
import Navigation
import SignInKit
import Store

/// The app: its screens and coordinators, its migrations, and how coordinatord serves it.
public enum Greeter {
    public static let navigation = NavigationApp(
        screens: [
            HelloScreen.self, GreetingScreen.self, HistoryScreen.self, PersonScreen.self, ForgetAlert.self,
            CardScreen.self, CardPreviewScreen.self,
        ] + SignInKit.screens,
        coordinators: [
            AppCoordinator.self, GreeterCoordinator.self, HistoryCoordinator.self, CardCoordinator.self,
            AccountCoordinator.self,
        ] + SignInKit.coordinators(links: NoLinks.self),
        // A signed-in user exists while their row does.
        userTable: SignInKit.userTable,
        root: { _ in AppCoordinator() })

    public static func migrations(for dialect: SQLDialect) throws -> [Migration] {
        try Migration.load(files: EmbeddedFiles.files(in: "Migrations/" + dialect.rawValue), scope: "greeter")
    }

    /// What coordinators reach for one event: the models, bound to the event's connection.
    public static func environment(_ connection: any SQLConnection) -> Environment {
        var environment = Environment()
        environment.set(Greetings(connection: connection))
        environment.set(People(connection: connection))
        return environment
    }

    /// Served with the sign-in kit's tables and models (`signingIn`).
    public static let served = ServedApp(
        name: "greeter", navigation: navigation, migrations: { try migrations(for: $0) },
        eventEnvironment: { event in environment(event.connection) }
    )
    .signingIn()
}
