import Foundation
import TestSupport
import Testing

/// `deploy/nginx.conf` as shipped, in front of three nodes on one PostgreSQL database.
@Suite struct ProxyTests {
    /// nginx with the shipped configuration, its three upstreams pointed at `nodes`. It runs as a
    /// daemon: the `nginx` command binds the listening socket before it forks and returns, so once
    /// it has returned the proxy accepts connections. Start it off Swift's pool.
    final class Proxy: Sendable {
        let port: UInt16
        private let arguments: [String]

        init(nodes: [ServerProcess]) throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder + "/logs", withIntermediateDirectories: true)
            port = try FreePort.pick()
            var site = try String(
                contentsOf: OpenAPITests.repository.appendingPathComponent("deploy/nginx.conf"), encoding: .utf8)
            for (index, node) in nodes.enumerated() {
                site = site.replacingOccurrences(of: "127.0.0.1:808\(index + 1)", with: "127.0.0.1:\(node.port)")
            }
            site = site.replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
            try site.write(toFile: folder + "/site.conf", atomically: true, encoding: .utf8)
            try """
            worker_processes 1;
            pid \(folder)/nginx.pid;
            error_log \(folder)/logs/error.log;
            events { worker_connections 256; }
            http { access_log off; include \(folder)/site.conf; }
            """.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
            arguments = ["-p", folder, "-c", folder + "/nginx.conf"]
            let started = try ChildProcess.run("/usr/sbin/nginx", arguments)
            guard started.status == 0 else { throw TestClientError(description: "nginx: \(started.output)") }
        }

        /// Tells nginx to stop (it reads its own pid file).
        func stop() {
            _ = try? ChildProcess.run("/usr/sbin/nginx", arguments + ["-s", "stop"])
        }

        /// Also when a test failed before it called `stop`.
        deinit { stop() }
    }

    /// Events each node applied so far (its `/metrics`), by port.
    static func appliedEvents(_ nodes: [ServerProcess]) async throws -> [UInt16: Int] {
        var applied: [UInt16: Int] = [:]
        for node in nodes {
            let text = try await TestHTTP.request(port: node.port, "GET", "/metrics").text
            let line = text.split(separator: "\n").first { $0.hasPrefix(#"coordinatord_events_total{outcome="applied"}"#) }
            applied[node.port] = line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        }
        return applied
    }

    @Test func aSessionStaysOnOneNodeAndFailsOverWhenItDies() async throws {
        var nodes = try await MultiNodeTests.nodes(3)
        let proxy = try await TestHTTP.offPool { [nodes] in try Proxy(nodes: nodes) }
        var client = try await SessionClient.create(port: proxy.port)
        for _ in 0..<10 { try Journey.expect200(try await client.send(ConcurrencyTests.nextEvent(for: client))) }
        // Every event of the session went to one node (its creation, hashed by request id, may
        // have gone elsewhere).
        let applied = try await Self.appliedEvents(nodes)
        #expect(applied.values.sorted() == [0, 0, 10])
        let home = try #require(nodes.first { applied[$0.port] == 10 })

        try await home.stop(signal: SIGKILL)
        nodes.removeAll { $0 === home }
        let before = client.version
        try Journey.expect200(try await client.send(ConcurrencyTests.nextEvent(for: client)))
        #expect(client.version == before + 1)
        #expect(try await client.refresh().status == 200)
        #expect(client.version == before + 1)
        // The next node on the ring took the session over.
        #expect(try await Self.appliedEvents(nodes).values.sorted() == [0, 1])
        try await TestHTTP.offPool { proxy.stop() }
    }

    /// Through the shipped nginx, a client that sends its own `X-Forwarded-For` junk is still
    /// logged (and counted) as itself: nginx appends the address it saw, and that entry counts.
    /// The client connects from 127.0.0.3 so that it is not the proxy's 127.0.0.1.
    @Test func junkForwardedForThroughTheProxyIsTheClientNotTheProxy() async throws {
        let node = try await ServerProcess.start(
            arguments: ["--trusted-proxy", "127.0.0.1", "--log-level", "info", "--log-format", "json"])
        // Every upstream of the shipped configuration is this one node.
        let proxy = try await TestHTTP.offPool { try Proxy(nodes: [node, node, node]) }
        let port = proxy.port
        for junk in ["unknown", "_hidden", "unknown, _hidden"] {
            let response = try await TestHTTP.offPool {
                try HTTPConnection(port: port, receiveTimeoutSeconds: 10, source: "127.0.0.3")
                    .request("GET", "/healthz", headers: ["X-Forwarded-For": junk])
            }
            #expect(response.status == 200)
        }
        try await TestHTTP.offPool { proxy.stop() }
        #expect(try await node.stop() == 0)
        let entries = try String(contentsOfFile: node.logPath, encoding: .utf8).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: String]
        }
        let clients = entries.filter { $0["path"] == "/healthz" }.map { $0["client"] ?? "" }
        #expect(clients == ["127.0.0.3", "127.0.0.3", "127.0.0.3"])
    }

    /// A proxy named by host name would never match a peer (peers are numeric): refused at start.
    @Test func aTrustedProxyMustBeANumericAddress() async throws {
        let database = ServerProcess.temporaryDatabasePath()
        // Before the check the server started (and is then killed as the value is dropped).
        await #expect(throws: TestClientError.self) {
            _ = try await ServerProcess.start(databasePath: database, arguments: ["--trusted-proxy", "proxy.example"])
        }
        let log = try String(contentsOfFile: database + ".log", encoding: .utf8)
        #expect(log.contains("--trusted-proxy takes a numeric IP address"))
    }
}
