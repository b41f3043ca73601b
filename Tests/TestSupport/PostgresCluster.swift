import Foundation
import Synchronization

/// A throw-away PostgreSQL cluster: `initdb` and `pg_ctl` in a temporary folder, listening on a
/// free port of 127.0.0.1 only, stopped when the test process exits. PostgreSQL refuses to run as
/// root, so as root the cluster runs as the `postgres` user (what Debian's package creates).
///
/// `shared` serves every test that only needs a database of its own (`createDatabase()`); a test
/// that stops and starts PostgreSQL starts a cluster of its own. Every call here waits for a child
/// process: call it off Swift's pool (`TestHTTP.offPool`), as `ServerProcess` does.
public final class PostgresCluster: Sendable {
    public let port: UInt16
    public let folder: String
    private static let bin = PostgresCluster.findBinaries()
    private let databases = Atomic<Int>(0)

    /// The cluster of this test process, started on first use.
    public static var shared: PostgresCluster {
        get throws { try sharedCluster.get() }
    }

    private static let sharedCluster = Result { try PostgresCluster() }

    /// Initialises and starts a new cluster.
    public init() throws {
        Self.abandonedClustersRemoved
        let folder = Self.memoryBackedFolder.appendingPathComponent("coordinatord-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.handToServerUser(folder)
        self.folder = folder
        try Self.run(
            "initdb", ["-D", folder + "/data", "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        // Tests need durability only across a killed node, never across a lost machine: no fsync,
        // and only the WAL that crash recovery needs. A parallel run held 207 connections at its
        // peak on two cores; a slower machine overlaps more tests, so there is room for five times that.
        try Self.appendSettings(
            folder + "/data/postgresql.conf",
            [
                "listen_addresses = '127.0.0.1'", "unix_socket_directories = '\(folder)'",
                "max_connections = 1000", "fsync = off", "shared_buffers = 64MB",
                "wal_level = minimal", "max_wal_senders = 0", "full_page_writes = off",
            ])
        self.port = try Self.startOnAFreePort(folder)
        Self.stopAtExit(self)
    }

    /// Where clusters live: in memory (`/dev/shm`) when the machine has it. A parallel run creates
    /// a database (7.5 MB) for each of some two hundred tests within a minute: in memory, none of
    /// it waits on the disk, which the suite's builds and SQLite files keep busy. (Servers that
    /// waited past their deadline for the cluster were held by the WAL that `createDatabase`
    /// wrote, not by the disk.)
    private static let memoryBackedFolder =
        access("/dev/shm", W_OK | X_OK) == 0
        ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory

    /// Removes, once per test process, the clusters of earlier runs that ended without stopping
    /// them (killed, say): in memory, they would hold the machine's RAM until it restarts. A cluster
    /// whose server still runs, or that changed within the hour, may be another test process's.
    private static let abandonedClustersRemoved: Void = {
        let parent = memoryBackedFolder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix("coordinatord-pg-") {
            let folder = parent.appendingPathComponent(name).path
            let pidLine = (try? String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8))?
                .split(separator: "\n").first
            if let pid = pidLine.flatMap({ pid_t($0) }), kill(pid, 0) == 0 || errno == EPERM { continue }
            let modified = (try? FileManager.default.attributesOfItem(atPath: folder)[.modificationDate]) as? Date
            guard let modified, modified < Date(timeIntervalSinceNow: -3_600) else { continue }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }()

    /// Starts a new cluster's server on a port that was free a moment ago. Between that moment
    /// and the server's bind, another test's process may take the port: then it tries another.
    private static func startOnAFreePort(_ folder: String) throws -> UInt16 {
        for attempt in 1...5 {
            let port = try FreePort.pick()
            // The last `port` line of the file wins.
            try appendSettings(folder + "/data/postgresql.conf", ["port = \(port)"])
            do {
                try run("pg_ctl", ["-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60", "start"])
                return port
            } catch {
                let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
                guard attempt < 5, log.contains("port \(port)?") else { throw error }
            }
        }
        preconditionFailure("unreachable: the last attempt returns or throws")
    }

    /// `postgresql://` URL of a new, empty database in this cluster.
    ///
    /// Copied as files (`FILE_COPY`), not through the WAL: PostgreSQL 15's default writes the
    /// whole template (7.2 MB) into the WAL, and the two hundred databases a parallel run makes in
    /// its first minute then held the WAL's insertion locks so long that servers' migrations
    /// took a second a statement (`pg_stat_activity`: `LWLock` `WALInsert`) and did not finish in
    /// their 60 s. Forty databases at once here: 287 MB of WAL, against 24 kB.
    public func createDatabase() throws -> String {
        let name = "test_\(ProcessInfo.processInfo.processIdentifier)_\(databases.add(1, ordering: .relaxed).newValue)"
        try Self.run(
            "psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-q", "-c", "CREATE DATABASE \(name) STRATEGY = FILE_COPY"])
        return url(database: name)
    }

    /// The URL of `database` in this cluster. A parallel run on two cores can keep a new
    /// connection waiting longer than the server's default `connect_timeout` (5 s), which would
    /// answer 503 for a machine's slowness: the URL allows as long as a test waits for anything.
    /// `through` names another port, a proxy's in front of this cluster.
    public func url(database: String, through proxyPort: UInt16? = nil) -> String {
        "postgresql://postgres@127.0.0.1:\(proxyPort ?? port)/\(database)?connect_timeout=\(Int(defaultDeadlineSeconds))"
    }

    /// The database a URL of this cluster names.
    public static func databaseName(in url: String) -> String { URL(string: url)?.lastPathComponent ?? "" }

    /// Starts the server and waits until it accepts connections.
    public func start() throws {
        try Self.run("pg_ctl", ["-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60", "start"])
    }

    /// Stops the server: `fast` ends every session and checkpoints; `immediate` is like a crash.
    public func stop(mode: String = "fast") throws {
        try Self.run("pg_ctl", ["-D", folder + "/data", "-m", mode, "-w", "-t", "60", "stop"])
    }

    /// Runs SQL with `psql` against `database` and returns its unaligned, tuples-only output.
    public func psql(_ sql: String, database: String) throws -> String {
        try Self.run("psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", database, "-At", "-c", sql])
    }

    // MARK: Processes

    private static var isRoot: Bool { getuid() == 0 }

    /// Runs a PostgreSQL program (as `postgres` when we are root) and returns its output; throws
    /// with that output when it fails.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let path = bin + "/" + program
        // From the root folder, which `postgres` can enter: the test's own folder may be one it
        // cannot (a clone under root's home), and psql warns of that on its errors.
        let (status, output, errors) =
            isRoot
            ? try ChildProcess.runApart("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments, directory: "/")
            : try ChildProcess.runApart(path, arguments, directory: "/")
        guard status == 0 else {
            throw TestClientError(description: "\(program) \(arguments.joined(separator: " ")) failed: \(output)\(errors)")
        }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The folder of the newest installed PostgreSQL's programs.
    private static func findBinaries() -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return versions.last.map { "\(root)/\($0)/bin" } ?? "/usr/bin"
    }

    private static func handToServerUser(_ folder: String) throws {
        guard isRoot else { return }
        _ = try ChildProcess.run("/bin/chown", ["postgres:", folder])
    }

    private static func appendSettings(_ path: String, _ lines: [String]) throws {
        // The file belongs to `postgres`; root may still append to it.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(("\n" + lines.joined(separator: "\n") + "\n").utf8))
        try handle.close()
    }

    // MARK: Stopping at exit

    /// Folders of the clusters to stop when the process exits, by port.
    private static let running = Mutex<[UInt16: String]>([:])

    private static func stopAtExit(_ cluster: PostgresCluster) {
        let first = running.withLock { folders in
            folders[cluster.port] = cluster.folder
            return folders.count == 1
        }
        guard first else { return }
        atexit {
            for folder in PostgresCluster.running.withLock({ $0.values }) {
                _ = try? PostgresCluster.run("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
    }

    // MARK: Diagnosis

    /// What a test that gave up waiting on a server of `url` should print: what each connection
    /// to that database was doing, and the end of its cluster's log. Waits at most a few seconds,
    /// since the cluster may be what hangs.
    public static func diagnosis(url: String) -> String {
        guard let components = URLComponents(string: url), let port = components.port.map(UInt16.init),
            let folder = running.withLock({ $0[port] })
        else { return "" }
        let database = databaseName(in: url)
        let activity =
            (try? run(
                "psql",
                [
                    "-d", "host=127.0.0.1 port=\(port) user=postgres dbname=postgres connect_timeout=5", "-At", "-c",
                    "SET statement_timeout = 5000; SELECT pid, state, wait_event_type, wait_event, "
                        + "now() - query_start, left(query, 120) FROM pg_stat_activity WHERE datname = '\(database)'",
                ])) ?? "(psql did not answer)"
        let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
        return "\nconnections to \(database):\n\(activity)\nthe cluster's log ends:\n\(log.suffix(3_000))"
    }
}
