import CoordinatorServer
import SampleApp

// The shipped sample app, served by coordinatord's server library.
await CoordinatorServer.main(
    ServedApp(
        name: SampleApp.name, navigation: SampleApp.navigation, migrations: { try SampleApp.migrations(for: $0) },
        environment: { startup in
            let services = try SampleAppServices(hasher: startup.passwordHasher, environment: startup.environment)
            return { connection, passwords, request in
                services.environment(
                    connection: connection, passwords: passwords, clientAddress: request.clientAddress, now: request.now,
                    deviceToken: request.deviceToken)
            }
        }))
