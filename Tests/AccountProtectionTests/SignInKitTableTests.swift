import Foundation
import PostgresStore
import SQLiteStore
import SignInKit
import Store
import TestSupport
import Testing

/// The sign-in kit's `users` table on a new database of either store: what `AccountStore` does
/// on it, and that an id is never handed out twice.
@Suite struct SignInKitTableTests {
    @Test(arguments: Backend.allCases)
    func aNewDatabaseGetsTheUsersTable(backend: Backend) async throws {
        let (connection, applied, _) = try await MigrationTests.migrated(SignInKit.migrations(for:), on: backend)
        #expect(applied.map { "\($0.scope)/\($0.version)" } == ["signin/1", "account-protection/1", "account-protection/2"])

        let accounts = AccountStore(connection: connection)
        let ada = try #require(try accounts.create(email: "Ada@Example.com", passwordHash: "h", displayName: "Ada", now: 1))
        // One account per e-mail key: case and look-alike letters see through.
        #expect(try accounts.create(email: "ada@example.com", passwordHash: "h", displayName: "Other", now: 2) == nil)
        #expect(try accounts.find(email: "ADA@example.com")?.id == ada.id)
        #expect(try accounts.exists(email: "\u{1D00}da@example.com"))
        try accounts.update(id: ada.id, displayName: "Ada L.")
        #expect(try accounts.find(id: ada.id)?.displayName == "Ada L.")

        try accounts.delete(id: ada.id)
        #expect(try accounts.find(id: ada.id) == nil)
        let next = try #require(try accounts.create(email: "bob@example.com", passwordHash: "h", displayName: "Bob", now: 3))
        #expect(next.id > ada.id, "a deleted user's id is never a new user's")
    }
}
