import ArgumentParser
import Foundation
import SQLiteStore

/// `backup`: an online copy of an SQLite database, taken while the server runs (`VACUUM INTO`
/// reads one consistent snapshot through a read transaction, so commits go on meanwhile). The
/// copy is a complete database file (no `-wal` beside it), which `serve --database` opens as
/// it is. PostgreSQL has its own tools: `pg_dump`, or a base backup with WAL archiving.
struct Backup: AppCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a running server's SQLite database to a new file, consistently, without stopping it.")

    @Option(help: "Path of the SQLite database file.")
    var database = "./data/coordinatord.sqlite"

    @Option(help: "Path of the copy to write; it must not exist yet.")
    var to: String

    func run(_ app: ServedApp) async throws {
        guard DatabaseLocation(database).dialect == .sqlite else {
            throw StartupError(
                description: "backup copies SQLite files; for PostgreSQL use pg_dump (or a base backup with WAL archiving)")
        }
        guard !FileManager.default.fileExists(atPath: to) else {
            throw StartupError(description: "\(to) exists already; name a new file")
        }
        let connection = try DatabaseLocation(database).openReadOnly()
        do {
            try connection.run("VACUUM INTO ?1", [.text(to)])
        } catch {
            throw StartupError(description: "cannot back up \(database) to \(to): \(error)")
        }
        print("backed up \(database) to \(to)")
    }
}
