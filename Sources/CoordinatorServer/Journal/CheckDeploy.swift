import ArgumentParser
import Foundation
import PostgresStore
import SQLiteStore
import Secrets
import Sessions
import Store

/// `check-deploy`: run by a new build against the live database, read-only. Decodes every
/// stored snapshot with this build's coordinators and replays the journal of a sample of
/// sessions; exits with status 2 when sessions would be lost, so a pipeline can stop the deploy.
struct CheckDeploy: AppCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-deploy",
        abstract: "Check, read-only, how this build would restore the database's sessions; exit 2 if any would be lost.")

    @Option(help: "Path of the SQLite database file, or a postgresql:// URL.")
    var database = "./data/coordinatord.sqlite"

    @Option(help: "Sessions whose journal is replayed with this build.")
    var sample = 100

    @Option(help: "Sessions read per query.")
    var batchSize = 500

    @Flag(help: "Print the report as one JSON object (for a pipeline) instead of lines of text.")
    var json = false

    func validate() throws {
        guard sample >= 0, batchSize >= 1 else { throw ValidationError("--sample takes 0 or more, --batch-size 1 or more.") }
    }

    func run(_ app: ServedApp) async throws {
        let hasher = PasswordHasher(operations: 2, memoryBytes: 19 * 1024 * 1024)
        let passwords = PasswordHashPool(hasher: hasher, concurrency: 1, maxQueued: 4)
        defer { passwords.close() }
        let startup = AppStartup(passwordHasher: hasher, environment: ProcessEnvironment.current, settings: try app.parseSettings([]))
        let environment = try app.environment(startup)
        let handled = Set(try app.effectHandlers(startup).entries.keys)
        let location = DatabaseLocation(database)
        let flows = FlowRunner(
            app: app.navigation, passwords: passwords, passwordJobsPerClient: 4, maxSnapshotBytes: Int.max,
            tables: location.sessionTables, environment: environment)
        let connection = try location.openReadOnly()
        let scratch = try openScratch(from: connection)
        defer { scratch?.remove() }
        let report = try await DeployCheck(flows: flows, batchSize: batchSize).run(
            on: connection, sample: sample, scratch: scratch?.connection, handled: handled)
        print(json ? report.json.serializedString : report.text)
        // Sessions that would start over, or effects that would fail: stop the deploy.
        if report.lostCount > 0 || !report.unhandledEffects.isEmpty { throw ExitCode(2) }
    }

    /// A connection that cannot write: an SQLite file opened read-only, or a PostgreSQL session
    /// whose transactions are all read-only.
    /// Where replayed flows write: on SQLite a copy of the file (`VACUUM INTO` a temporary file,
    /// deleted after); on PostgreSQL a second connection whose transactions the check rolls back.
    /// The live data is never written.
    private func openScratch(from live: any SQLConnection) throws -> Scratch? {
        guard sample > 0 else { return nil }
        switch DatabaseLocation(database).dialect {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("check-deploy-\(UUID().uuidString).sqlite").path
            do {
                try live.run("VACUUM INTO ?1", [.text(path)])
                return Scratch(connection: try SQLiteConnection(path: path), path: path)
            } catch {
                throw StartupError(description: "cannot copy \(database) to \(path) to replay on: \(error)")
            }
        case .postgresql:
            do {
                return Scratch(connection: try PostgresConnection(url: database), path: nil)
            } catch let error as any DatabaseError {
                throw StartupError(description: "cannot open a second connection to \(database): \(error.message)")
            }
        }
    }

    /// The scratch connection, and the copy's file to delete.
    private struct Scratch {
        let connection: any SQLConnection
        let path: String?

        func remove() {
            guard let path else { return }
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }

}
