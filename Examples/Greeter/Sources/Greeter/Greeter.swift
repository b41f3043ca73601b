import CoordinatorServer
import Foundation
import Navigation
import Store

/// The app: its screens and coordinators, its migrations, and how coordinatord serves it.
public enum Greeter {
    public static let navigation = NavigationApp(
        screens: [HelloScreen.self, GreetingScreen.self], coordinators: [GreeterCoordinator.self],
        root: { _ in GreeterCoordinator() })

    public static func migrations(for dialect: SQLDialect) throws -> [Migration] {
        try Migration.load(from: Bundle.module, scope: "greeter", dialect: dialect)
    }

    /// What coordinators reach for one event: the model, bound to the event's connection.
    public static func environment(_ connection: any SQLConnection) -> Environment {
        var environment = Environment()
        environment.set(Greetings(connection: connection))
        return environment
    }

    public static let served = ServedApp(
        name: "greeter", navigation: navigation, migrations: { try migrations(for: $0) },
        environment: { _ in { connection, _, _ in environment(connection) } })
}
