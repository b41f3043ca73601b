import Foundation
import TestSupport
import Testing

/// A server started before its PostgreSQL accepts connections (started together, say, or a
/// moment too busy to answer) waits for it, logging why, and serves once it is up; a login the
/// server refuses still fails at once.
@Suite struct PostgresStartupTests {
    @Test func aServerStartedBeforePostgreSQLWaitsForItThenServes() async throws {
        let cluster = try await TestHTTP.offPool { try PostgresCluster() }
        _ = try await TestHTTP.offPool { try cluster.psql("CREATE DATABASE early", database: "postgres") }
        try await TestHTTP.offPool { try cluster.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("early-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (output, errors) = (folder + "/out", folder + "/log")
        let pid = try ChildProcess.spawn(
            ServerProcess.binaryPath,
            ["serve", "--port", "0", "--database", cluster.url(database: "early"), "--log-level", "warning"],
            output: output, errors: errors, environment: [:])
        defer {
            kill(pid, SIGKILL)
            try? ChildProcess.reap(pid)
        }
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        // PostgreSQL starts only once the server has said that it waits for it.
        try await waitUntil("the server to wait for PostgreSQL: \(read(errors))") {
            read(errors).contains("waiting for PostgreSQL")
        }
        #expect(read(output).isEmpty, "it must not listen before its database is there")
        try await TestHTTP.offPool { try cluster.start() }
        try await waitUntil("the server to listen: \(read(errors))") {
            try ServerProcess.listeningPort(in: read(output)) != nil
        }
        let port = try #require(try ServerProcess.listeningPort(in: read(output)))
        #expect(try await TestHTTP.request(port: port, "GET", "/healthz").status == 200)
        var client = try await SessionClient.create(port: port)
        try Journey.expect200(try await client.refresh())
        try await TestHTTP.offPool { try cluster.stop(mode: "immediate") }
    }

    @Test func aDatabaseThatDoesNotExistFailsAtOnce() async throws {
        let cluster = try await TestHTTP.offPool { try PostgresCluster.shared }  // may start it: off the pool
        let run = try await TestHTTP.offPool {
            try ChildProcess.run(
                ServerProcess.binaryPath,
                ["serve", "--port", "0", "--database", cluster.url(database: "no_such_database"), "--log-level", "warning"])
        }
        #expect(run.status != 0)
        #expect(run.output.contains("no_such_database"), "\(run.output)")
        // Not a server still starting: no waiting for it.
        #expect(!run.output.contains("waiting for PostgreSQL"), "\(run.output)")
    }
}
