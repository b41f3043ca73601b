import CoordinatorApp
import Foundation
import Navigation
import Store

/// The app: its screens and coordinators, its migrations, and how coordinatord serves it.
public enum Greeter {
    public static let navigation = NavigationApp(
        screens: [
            HelloScreen.self, GreetingScreen.self, HistoryScreen.self, PersonScreen.self, ForgetAlert.self,
            CardScreen.self, CardPreviewScreen.self,
        ],
        coordinators: [AppCoordinator.self, GreeterCoordinator.self, HistoryCoordinator.self, CardCoordinator.self],
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

    public static let served = ServedApp(
        name: "greeter", navigation: navigation, migrations: { try migrations(for: $0) },
        eventEnvironment: { event in environment(event.connection) })
}
