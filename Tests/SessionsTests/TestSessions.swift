import Foundation
import Logging
import Navigation
import SQLiteStore
import Secrets
import SessionStorage
@testable import Sessions
import Store

/// What the session tests build on: a new SQLite file in the temporary folder with the
/// repository's migrations (and any a test adds), and a session service over it whose password
/// hashing is cheap enough for tests.
enum TestSessions {
    static func database(_ prefix: String, adding migrations: [Migration] = []) throws -> SQLiteDatabase {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString).sqlite").path
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try SQLiteDatabase(
            path: path,
            migrations: Migration.load(directory: repository.appendingPathComponent("migrations/sqlite").path) + migrations)
    }

    static func service(
        _ app: NavigationApp, on store: any SessionStore, configuration: SessionConfiguration = SessionConfiguration(),
        environment: @escaping EnvironmentFactory
    ) -> SessionService {
        SessionService(
            app: app, store: store, passwords: PasswordHashPool(hasher: PasswordHasher(operations: 1, memoryBytes: 8192)),
            configuration: configuration, logger: Logger(label: "test"), environment: environment)
    }
}
