import CoordinatorServer
import Foundation
import Navigation
import SQLiteStore

/// The app: its screens and coordinators, its migrations, and how coordinatord serves it.
public enum Greeter {
    public static let navigation = NavigationApp(
        screens: [HelloScreen.self, GreetingScreen.self], coordinators: [GreeterCoordinator.self],
        root: { _ in GreeterCoordinator() })

    public static func migrations() throws -> [Migration] {
        try Migration.load(from: Bundle.module, scope: "greeter")
    }

    /// What coordinators reach for one event: the model, bound to the event's connection.
    public static func environment(_ connection: Connection) -> Environment {
        var environment = Environment()
        environment.set(Greetings(connection: connection))
        return environment
    }

    public static let served = ServedApp(
        name: "greeter", navigation: navigation, migrations: { try migrations() },
        environment: { _ in { connection, _, _ in environment(connection) } })
}
