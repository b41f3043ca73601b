import CoordinatorServer
import CoordinatorTesting
import Foundation
import Navigation
import SQLiteStore
import Store
@testable import SampleApp

/// The sample app under `CoordinatorTesting`, built as `coordinatord` serves it (see
/// Sources/coordinatord/main.swift), with the guards a test chooses.
extension AppTester {
    /// The sample app as `coordinatord` serves it, guarded by `guards`.
    /// With `sendsWelcomes`, as with `--welcome-webhook`: new users are sent a welcome message
    /// (to a relay that does not exist: a test fakes the effect).
    static func served(guards: SampleAppGuards = SampleAppGuards(), sendsWelcomes: Bool = false) -> ServedApp {
        ServedApp(
            name: SampleApp.name, navigation: SampleApp.navigation, migrations: { try SampleApp.migrations(for: $0) },
            environment: { startup in
                let services = try SampleAppServices(hasher: startup.passwordHasher, guards: guards, sendsWelcomes: sendsWelcomes)
                return { connection, passwords, request in
                    services.environment(
                        connection: connection, passwords: passwords, clientAddress: request.clientAddress,
                        now: request.now, deviceToken: request.deviceToken)
                }
            }
        ).handlingEffects { _ in WelcomeMessages(webhook: URL(string: "http://relay.invalid/welcome")).handlers }
    }

    /// A session of the sample app on a new database, or on the database (and clock) of `other`.
    static func sample(
        platform: Platform = .phone, guards: SampleAppGuards = SampleAppGuards(), sharing other: AppTester? = nil
    ) async throws -> AppTester {
        try await AppTester(
            served(guards: guards), platform: platform, database: other?.database, clock: other?.clock ?? ManualClock())
    }

    /// coordinatord's migrations, then the sample app's.
    static var sampleMigrations: [Migration] { get throws { try migrations(of: served()) } }

    /// A new in-memory database with every migration applied.
    static func sampleDatabase() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: ":memory:")
        try Migrator(migrations: sampleMigrations).migrate(connection)
        return connection
    }

    /// Registers through the three steps, ending signed in on the timeline.
    mutating func register(email: String = "ada@example.com", name: String = "Ada") async throws {
        try await send(FirstRunScreen.self, .signUp)
        try await send(SignUpEmailScreen.self, .next(EmailField(email: email)))
        try await send(SignUpPasswordScreen.self, .next(PasswordField(password: Self.password)))
        try await send(SignUpProfileScreen.self, .finish(DisplayNameField(displayName: name)))
    }

    /// The number of rows in `table`.
    func count(_ table: String) throws -> Int { try rows(in: table) }

    static let password = "correct horse battery staple"
}
