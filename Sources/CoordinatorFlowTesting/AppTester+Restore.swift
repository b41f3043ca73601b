import CoordinatorApp
import Foundation
import Navigation
import SQLiteStore
import SessionStorage
import Sessions

extension AppTester {
    /// The session's snapshot, as the server stores it after each event. Keep one of each release
    /// in a test that restores it (`init(_:restoring:)`), so that a deploy that changes a
    /// coordinator's stored fields cannot reset the sessions that release stored.
    public var snapshot: String {
        get throws { String(decoding: try navigation.snapshot(tree), as: UTF8.self) }
    }

    /// Writes the session's snapshot to `file` (and its folder) unless a file is there already;
    /// true when it wrote. Call it in a test of each release's sessions and commit the file: the
    /// first run records the snapshot of the release that ran it, later runs keep it, and a test
    /// restores it with `init(_:restoring:)` in every build after.
    @discardableResult
    public func keepSnapshot(at file: URL) throws -> Bool {
        let files = FileManager.default
        guard !files.fileExists(atPath: file.path) else { return false }
        try files.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(try snapshot.utf8).write(to: file, options: .withoutOverwriting)
        return true
    }

    /// `keepSnapshot(at:)` for `Snapshots/<name>.json` beside the test file that calls it: the
    /// test target's `Snapshots` resources, as the guide's restore test reads them
    /// (`Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Snapshots")`).
    @discardableResult
    public func keepSnapshot(named name: String, filePath: StaticString = #filePath) throws -> Bool {
        let folder = URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent().appendingPathComponent("Snapshots")
        return try keepSnapshot(at: folder.appendingPathComponent(name + ".json"))
    }

    /// A session of `app` restored from `snapshot`, as the server restores a session that an
    /// earlier release stored (after a deploy, a restart, an eviction); the other parameters are
    /// `init(_:platform:settings:database:clock:environment:)`'s.
    ///
    /// Where the server would fall back to a fresh start of the root flow (it logs "session
    /// snapshot fell back to a fresh start" and the user is back on the first screen), this throws
    /// the `SnapshotError` it would log: a coordinator's stored fields no longer decode (a field
    /// added that is neither optional nor decoded with a default, one renamed or retyped), a
    /// coordinator type is gone, or its `schemaVersion` changed. And where the snapshot's
    /// signed-in user has no row in the app's user table (`NavigationApp.userTable`) of the test's
    /// database, it throws `RestoredUserMissing`: the server would start such a session over,
    /// signed out, at its first event; insert the user's row (into a `database` you pass) first.
    public init(
        _ app: ServedApp, restoring snapshot: String, settings: [String] = [], database: SQLiteConnection? = nil,
        clock: ManualClock = ManualClock(), environment: [String: String] = [:]
    ) async throws {
        self = try await AppTester(app, settings: settings, database: database, clock: clock, environment: environment)
        tree = try navigation.decodeSnapshot(Array(snapshot.utf8))
        if let user = tree.user, let rows = shared.flows.userRows, try !rows.contains(user.id, on: self.database) {
            throw RestoredUserMissing(user: user.id, table: rows.name)
        }
        shared.signedIn(tree.user?.id, session: sessionID)
    }
}

/// A restored session's signed-in user has no row: the server would start the session over,
/// signed out, at its first event, so a test of it would test something else.
public struct RestoredUserMissing: Error, CustomStringConvertible, Equatable {
    /// The snapshot's user.
    public let user: Int64
    /// The app's user table.
    public let table: String

    public init(user: Int64, table: String) {
        self.user = user
        self.table = table
    }

    public var description: String {
        "the snapshot is signed in as user \(user), who has no row in \(table): the server would start this session "
            + "over signed out at its first event. Insert the user's row into a database and pass it (`database:`)"
    }
}
