import CoordinatorOTel
import CoordinatorServer
import SampleApp

// The shipped sample app, served by coordinatord's server library.
await CoordinatorServer.main(
    ServedApp(
        name: SampleApp.name, navigation: SampleApp.navigation, settings: SampleAppSettings.self,
        migrations: { try SampleApp.migrations(for: $0) },
        environment: { startup, settings in
            let services = try SampleAppServices(
                hasher: startup.passwordHasher,
                guards: SampleAppGuards(registrationsPerMinute: settings.registrationsPerMinute),
                sendsWelcomes: settings.welcomeURL != nil)
            return { connection, passwords, request in
                services.environment(
                    connection: connection, passwords: passwords, clientAddress: request.clientAddress, now: request.now,
                    deviceToken: request.deviceToken)
            }
        }
    )
    .exportingTraces(OTLPTracing())
    .handlingEffects { startup in WelcomeMessages(webhook: try startup.settings(as: SampleAppSettings.self).welcomeURL).handlers }
    .versioned(CoordinatorServer.version))
