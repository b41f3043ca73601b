import Metrics
import Navigation
import Secrets
import SessionStorage
import Store

/// Runs an app's flows the way the session service does, short of storing the session: each
/// run's environment (the app's models on the run's connection, what was prepared, the run's
/// lasting writes, the session directory), the rounds of slow work between runs (password work
/// on the hash pool, capped per client; `PreparationNeeded`), and the snapshot's byte limit.
///
/// The session service runs every session's start and every event through it; `CoordinatorTesting`
/// runs an app's tests through it, so a test runs the very loop the server runs. A class (all of
/// it constant): each event's stages reach it several times, and a struct holding the app was
/// copied, its fields retained, at each.
package final class FlowRunner: Sendable {
    package let app: NavigationApp
    let passwords: PasswordHashPool
    let passwordJobs: PasswordJobsPerClient
    let makeEnvironment: EnvironmentFactory
    let maxSnapshotBytes: Int
    /// The app's `UserTable`, as the store checks a user in it (made once: its statement's text
    /// is found by where it is kept).
    package let userRows: UserRows?
    /// The session tables, as the store's backend keeps them (the session directory reads them).
    let tables: any SessionPersistence

    /// - Parameters:
    ///   - passwordJobsPerClient: password jobs one client may have in the pool at once (`429` past it).
    ///   - maxSnapshotBytes: the largest snapshot a run may make (`422` past it).
    ///   - environment: the app's part of each run's environment.
    ///   - tables: the session tables of the store the flows run on.
    package init(
        app: NavigationApp, passwords: PasswordHashPool, passwordJobsPerClient: Int, maxSnapshotBytes: Int,
        tables: any SessionPersistence, environment: @escaping EnvironmentFactory
    ) {
        self.tables = tables
        self.app = app
        self.passwords = passwords
        self.passwordJobs = PasswordJobsPerClient(limit: passwordJobsPerClient)
        self.makeEnvironment = environment
        self.maxSnapshotBytes = maxSnapshotBytes
        self.userRows = app.userTable.map { UserRows(name: $0.name, idColumn: $0.idColumn) }
    }

    /// A new session's tree for `platform`, started on `connection` with `link` opened, and its snapshot.
    package func start(
        platform: Platform, link: String? = nil, on connection: any SQLConnection, _ prepared: PreparedWork,
        _ info: RequestInfo, session: String
    ) throws -> (tree: NavigationTree, snapshot: [UInt8]) {
        let environment = self.environment(connection, prepared, info, session: session)
        let tree = try app.start(platform: platform, link: link, environment: environment)
        return (tree, try snapshot(tree))
    }

    /// The store access `event`'s handler declares, its slow work asked for on `connection`
    /// (`NavigationApp.declaredAccess`): thrown as the flow's would be, to be prepared before the
    /// flow's one run. nil when no coordinator declares.
    package func declaredAccess(
        _ event: IncomingEvent, in tree: NavigationTree, on connection: any SQLConnection, _ prepared: PreparedWork,
        _ info: RequestInfo, session: String
    ) throws -> EventAccess? {
        try app.declaredAccess(for: event, in: tree, environment: environment(connection, prepared, info, session: session))
    }

    // Made on first use (after the metrics system is set up): every run of an app's flow, so
    // that runs per event (this over `coordinatord_events_total`) show what preparing costs.
    private static let runs = Counter(label: "coordinatord_flow_runs_total")

    /// One run of `event`'s flow on `connection`, with the app's models bound to it: `tree`
    /// changes only when the run succeeds. Also returns the snapshot to store, and its JSON.
    ///
    /// An app's `UserTable` is checked on `connection` before the flow, unless `userCheckInWrite`:
    /// then the run skips it, and names in `userToConfirm` the user whose row the write must find
    /// (`UserRows.contains`) for the run to stand. A write that does not find it runs the event
    /// again, with the check first.
    package func apply(
        _ event: IncomingEvent, to tree: inout NavigationTree, on connection: any SQLConnection, _ prepared: PreparedWork,
        _ info: RequestInfo, session: String, userCheckInWrite: Bool = false
    ) throws -> (outcome: EventOutcome, snapshot: [UInt8], json: [UInt8], userToConfirm: Int64?) {
        let run = try applying(
            event, from: tree, on: connection, prepared, info, session: session, userCheckInWrite: userCheckInWrite)
        tree = run.tree
        return (run.outcome, run.snapshot, run.json, run.userToConfirm)
    }

    /// `apply`, leaving `tree` as it is and returning the tree the run made (the session service's
    /// form: its tree is a copy already, which `apply`'s working copy would copy again).
    package func applying(
        _ event: IncomingEvent, from tree: NavigationTree, on connection: any SQLConnection, _ prepared: PreparedWork,
        _ info: RequestInfo, session: String, userCheckInWrite: Bool = false
    ) throws -> (tree: NavigationTree, outcome: EventOutcome, snapshot: [UInt8], json: [UInt8], userToConfirm: Int64?) {
        Self.runs.increment()
        var working = tree
        let environment = self.environment(connection, prepared, info, session: session)
        let outcome: EventOutcome
        if let table = userRows, let user = tree.user, !userCheckInWrite, try !table.contains(user.id, on: connection) {
            outcome = try app.startOverSignedOut(&working, environment: environment)
        } else {
            outcome = try app.apply(event, to: &working, environment: environment)
        }
        let json = try snapshotJSON(working)
        let userToConfirm = userCheckInWrite && userRows != nil ? tree.user?.id : nil
        return (working, outcome, StoredSnapshot.pack(json), json, userToConfirm)
    }

    /// The snapshot of `tree` as stored, refused (`422`) when its JSON is past the session's byte limit.
    package func snapshot(_ tree: NavigationTree) throws -> [UInt8] {
        StoredSnapshot.pack(try snapshotJSON(tree))
    }

    /// The JSON of `tree`'s snapshot, refused (`422`) past the session's byte limit.
    private func snapshotJSON(_ tree: NavigationTree) throws -> [UInt8] {
        let json = try app.snapshot(tree)
        guard json.count <= maxSnapshotBytes else { throw EventRejection.sessionLimit("\(maxSnapshotBytes) bytes of state") }
        return json
    }
}
