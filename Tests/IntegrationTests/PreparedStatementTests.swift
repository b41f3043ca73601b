import Foundation
import PostgresStore
import Store
import TestSupport
import Testing

/// SQL with values in its text prepares a new statement each time; a PostgreSQL connection keeps
/// a bounded number of them on the server, and goes on answering past the bound.
@Suite struct PreparedStatementTests {
    @Test func aPostgresConnectionKeepsABoundedNumberOfPreparedStatements() async throws {
        let url = try await Backend.postgresql.newDatabase()
        let (answers, prepared) = try await TestHTTP.offPool {
            let connection = try PostgresConnection(url: url)
            let answers = try (0..<300).map { index in try connection.queryFirst("SELECT \(index)") { $0.int(0) } }
            let prepared = try connection.queryFirst("SELECT count(*) FROM pg_prepared_statements") { $0.int(0) }
            return (answers, prepared)
        }
        #expect(answers == (0..<300).map { $0 })
        #expect((prepared ?? .max) <= 256)
    }
}
