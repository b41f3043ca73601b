import Foundation
import TestSupport
import Testing

/// The real binary on a free port with a real SQLite file.
@Suite struct OperationsTests {
    @Test func healthzMetricsAndGracefulStop() async throws {
        let server = try await ServerProcess.start()
        let health = try await TestHTTP.request(port: server.port, "GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "ok")

        _ = try await TestHTTP.request(port: server.port, "GET", "/missing")
        let metrics = try await TestHTTP.request(port: server.port, "GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(metrics.text.contains(#"http_requests_total{method="GET",route="/healthz",status="200"} 1"#))
        #expect(metrics.text.contains(#"http_requests_total{method="GET",route="unmatched",status="404"} 1"#))
        #expect(metrics.text.contains("http_request_duration_seconds_bucket"))

        #expect(try await server.stop(signal: SIGTERM) == 0)
        #expect(FileManager.default.fileExists(atPath: server.databasePath))
    }

    /// Answers and commits mostly take under a millisecond: their histograms resolve that
    /// (swift-prometheus's default buckets start at 5 ms), and every group commit is in its own.
    @Test func durationHistogramsResolveUnderAMillisecondAndCountEveryCommit() async throws {
        // The test hooks' manual clock: no sweep writes while the test reads.
        let server = try await ServerProcess.start(arguments: ["--test-hooks"])
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("signUp"))
        let text = try await TestHTTP.request(port: server.port, "GET", "/metrics").text
        #expect(text.contains(#"http_request_duration_seconds_bucket{method="POST",route="/v1/sessions",le="0.0001"}"#))
        #expect(text.contains("# HELP coordinatord_commit_seconds "))
        #expect(text.contains(#"coordinatord_commit_seconds_bucket{le="0.0005"}"#))
        // Both from the one scrape.
        let commits = try #require(ServerProcess.metric("coordinatord_commits_total", in: text))
        #expect(commits >= 2)
        #expect(ServerProcess.metric("coordinatord_commit_seconds_count", in: text) == commits)
        try await server.stop()
    }

    /// `top -H`, `ps -L` and `perf` name the server's own threads (Foundation's `Thread.name`
    /// alone left them all with the name of the thread that started them).
    @Test func theServersThreadsCarryTheirNamesInTheKernel() async throws {
        let server = try await ServerProcess.start()
        let expected: Set = ["sqlite-writer", "sqlite-ckpt", "http-conn-watch", "http-streams", "password-hash-0"]
        var names: Set<String> = []
        try await waitUntil("thread names \(expected.subtracting(names).sorted())") {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/task")) ?? []
            names = Set(tasks.compactMap { task in
                (try? String(contentsOfFile: "/proc/\(server.pid)/task/\(task)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            })
            return expected.isSubset(of: names)
        }
        try await server.stop()
    }

    /// The server allocates with TCMalloc: it is mapped into the process, and the server did not
    /// find glibc's `malloc` first (it would say so in its log at start-up).
    @Test func theServerAllocatesWithTCMalloc() async throws {
        let server = try await ServerProcess.start()
        // Read to its end: /proc reports a size of 0, and reading that many bytes stops early.
        let maps = try #require(try FileHandle(forReadingAtPath: "/proc/\(server.pid)/maps")?.readToEnd())
        #expect(String(decoding: maps, as: UTF8.self).contains("libtcmalloc_minimal"))
        #expect(try await TestHTTP.request(port: server.port, "GET", "/healthz").status == 200)
        try await server.stop()
        #expect(!server.log.contains("not TCMalloc"), "\(server.log)")
    }

    /// A clean stop leaves the whole database in its main file: the log is checkpointed and
    /// emptied, so a copy of the file alone serves every acknowledged event.
    @Test func aCleanStopLeavesTheDatabaseInItsMainFile() async throws {
        let server = try await ServerProcess.start()
        var client = try await SessionClient.create(port: server.port)
        for _ in 0..<6 { try Journey.expect200(try await client.send(ConcurrencyTests.nextEvent(for: client))) }
        #expect(try await server.stop() == 0)
        let log = (try? FileManager.default.attributesOfItem(atPath: server.databasePath + "-wal")[.size] as? Int) ?? 0
        #expect(log == 0, "the log still holds \(log) bytes")

        let copy = ServerProcess.temporaryDatabasePath()
        try FileManager.default.copyItem(atPath: server.databasePath, toPath: copy)
        let restored = try await ServerProcess.start(databasePath: copy)
        var again = client.moved(to: restored.port)
        #expect(try await again.refresh().status == 200)
        #expect(again.version == client.version)
        try await restored.stop()
    }

    /// `backup` copies a running server's database consistently, and the copy serves every
    /// event acknowledged before it; it refuses to overwrite a file, and points PostgreSQL to pg_dump.
    @Test func anOnlineBackupServesWhatWasAcknowledged() async throws {
        let server = try await ServerProcess.start()
        var client = try await SessionClient.create(port: server.port)
        for _ in 0..<5 { try Journey.expect200(try await client.send(ConcurrencyTests.nextEvent(for: client))) }
        let copy = ServerProcess.temporaryDatabasePath()
        let backup = try await TestHTTP.offPool {
            try ChildProcess.run(ServerProcess.binaryPath, ["backup", "--database", server.databasePath, "--to", copy])
        }
        #expect(backup.status == 0, "\(backup.output)")
        // The server goes on meanwhile.
        try Journey.expect200(try await client.send(ConcurrencyTests.nextEvent(for: client)))
        let again = try await TestHTTP.offPool {
            try ChildProcess.run(ServerProcess.binaryPath, ["backup", "--database", server.databasePath, "--to", copy])
        }
        #expect(again.status != 0)
        #expect(again.output.contains("exists already"), "\(again.output)")
        let postgres = try await TestHTTP.offPool {
            try ChildProcess.run(
                ServerProcess.binaryPath, ["backup", "--database", "postgresql://localhost/none", "--to", copy + ".2"])
        }
        #expect(postgres.output.contains("pg_dump"), "\(postgres.output)")
        try await server.stop()

        let restored = try await ServerProcess.start(databasePath: copy)
        var copied = client.moved(to: restored.port)
        #expect(try await copied.refresh().status == 200)
        #expect(copied.version == client.version - 1)
        try await restored.stop()
    }

    /// `/metrics` counts every run of an app's flow, and each event runs its flow once:
    /// navigation, every step of registration and sign-in (right and wrong passwords), whose
    /// password work is declared (`Coordinator.prepare(for:_:)`) and done before the run.
    @Test(arguments: Backend.allCases) func flowRunsOncePerEventForNavigationRegistrationAndSignIn(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        func runs() async throws -> Double { try await server.metric("coordinatord_flow_runs_total") ?? 0 }
        func once(_ client: inout SessionClient, _ event: String, _ payload: [String: Any]? = nil) async throws {
            let before = try await runs()
            try Journey.expect200(try await client.send(event, payload))
            #expect(try await runs() == before + 1, "\(event) from \(client.topScreen.name) ran its flow once")
        }
        for event in ["logIn", "back", "logIn", "back"] { try await once(&client, event) }
        try await once(&client, "signUp")
        try await once(&client, "next", ["email": "runs@example.com"])
        try await once(&client, "next", ["password": Journey.password])
        try await once(&client, "finish", ["displayName": "Runs"])
        #expect(client.topScreen.name != "signUpProfile", "registered")
        var other = try await SessionClient.create(port: server.port)
        try await once(&other, "logIn")
        try await once(&other, "submit", ["email": "runs@example.com", "password": "not the password at all"])
        #expect(other.topScreen.name == "login", "a wrong password keeps the login screen")
        try await once(&other, "submit", ["email": "nobody@example.com", "password": "not the password at all"])
        try await once(&other, "submit", ["email": "runs@example.com", "password": Journey.password])
        #expect(other.topScreen.name != "login", "signed in")
    }

    @Test func sigintAlsoStopsCleanly() async throws {
        let server = try await ServerProcess.start()
        #expect(try await server.stop(signal: SIGINT) == 0)
    }

    @Test func environmentVariablesConfigureTheServer() async throws {
        let server = try await ServerProcess.start(environment: ["COORDINATORD_MAX_BODY_BYTES": "10"])
        let response = try await TestHTTP.request(
            port: server.port, "POST", "/healthz", headers: ["Content-Type": "application/json"],
            body: "{\"far more\": \"than ten bytes\"}")
        #expect(response.status == 413)
        try await server.stop()
    }

    @Test func argon2WeakerThanOWASPIsRefused() async throws {
        let result = try await OpenAPITests.run(ServerProcess.binaryPath, ["serve", "--port", "0", "--password-memory-mib", "8"])
        #expect(result.status != 0)
        #expect(result.output.contains("OWASP"))
    }

    /// A database file deleted under the running server: writes are refused with `503`, never
    /// acknowledged into a file the next start will not open, and health says why.
    @Test func aDeletedDatabaseFileRefusesWritesAndFailsHealth() async throws {
        let server = try await ServerProcess.start()
        var client = try await SessionClient.create(port: server.port)
        #expect(try await TestHTTP.request(port: server.port, "GET", "/healthz").status == 200)
        try FileManager.default.removeItem(atPath: server.databasePath)
        let event = try await client.send("logIn")
        #expect(event.status == 503)
        #expect(event.headers["content-type"] == "application/problem+json")
        let created = try await TestHTTP.request(
            port: server.port, "POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: "{}")
        #expect(created.status == 503)
        let health = try await TestHTTP.request(port: server.port, "GET", "/healthz")
        #expect(health.status == 503)
        #expect((health.json["detail"] as? String)?.contains("deleted or replaced") == true)
        #expect(try await server.stop() == 0)
    }

    /// A `503` means nothing changed: with the database file deleted, a refused event leaves the
    /// session as it was, in memory and in what the server reads back: `GET` shows the version
    /// before it, and the same tap again is refused the same way (not `409` against a version
    /// that the refused write left behind).
    @Test func anEventRefusedForADeletedDatabaseFileChangesNothing() async throws {
        let server = try await ServerProcess.start()
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        let before = try await client.get("")
        #expect(before.status == 200)
        try FileManager.default.removeItem(atPath: server.databasePath)
        for attempt in 0..<3 {
            let refused = try await client.send("back")
            #expect(refused.status == 503, "attempt \(attempt): \(refused.text)")
            #expect(refused.headers["content-type"] == "application/problem+json")
            let read = try await client.get("")
            #expect(read.status == 200)
            #expect(read.headers["etag"] == before.headers["etag"], "attempt \(attempt)")
            #expect(read.text == before.text, "attempt \(attempt)")
        }
        // What only the store can answer (whose token is this?) is not read from the deleted file.
        let other = try await TestHTTP.request(
            port: server.port, "GET", "/v1/sessions/\(client.id)", headers: ["Authorization": "Bearer not-a-token"])
        #expect(other.status == 503)
        #expect(try await server.stop() == 0)
    }

    /// A full database (here a storage quota) is unhealthy too, not only an unreadable one.
    @Test func aDatabaseThatCannotBeWrittenFailsHealth() async throws {
        // Many sessions from one client fill the quota: no per-client rate here.
        let server = try await ServerProcess.start(arguments: ["--max-database-pages", "40", "--sessions-per-minute", "0"])
        for _ in 0..<400 {
            let response = try await TestHTTP.request(
                port: server.port, "POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: "{}")
            if response.status != 201 { break }
        }
        let health = try await TestHTTP.request(port: server.port, "GET", "/healthz")
        #expect(health.status == 503)
        #expect((health.json["detail"] as? String)?.contains("does not take writes") == true)
    }

    @Test func aSecondServerOnTheSameFileRefusesToStart() async throws {
        let server = try await ServerProcess.start()
        let second = try await OpenAPITests.run(
            ServerProcess.binaryPath, ["serve", "--port", "0", "--database", server.databasePath])
        #expect(second.status != 0)
        #expect(second.output.contains("another coordinatord process is serving \(server.databasePath)"))
        #expect(second.output.split(separator: "\n").count == 1)
        #expect(try await TestHTTP.request(port: server.port, "GET", "/healthz").status == 200)
    }

    @Test func aStartUpFailureSaysWhatToDoInOneLine() async throws {
        let file = ServerProcess.temporaryDatabasePath()
        _ = FileManager.default.createFile(atPath: file, contents: Data("not a folder".utf8))
        let result = try await OpenAPITests.run(
            ServerProcess.binaryPath, ["serve", "--port", "0", "--database", file + "/inside/db.sqlite"])
        #expect(result.status != 0)
        #expect(result.output.contains("choose a writable --database path"))
        #expect(!result.output.contains("NSCocoaErrorDomain"))
        #expect(result.output.split(separator: "\n").count == 1)
    }

    /// Every metric family has help; the operator's figures are there.
    @Test func metricsHaveHelpAndWhatAnOperatorWatches() async throws {
        let server = try await ServerProcess.start(arguments: ["--trusted-proxy", "127.0.0.1"])
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        _ = try await client.send("logIn")  // stale: refused
        _ = try await client.send("submit", ["email": "nobody@example.com", "password": "a wrong password!!"])
        let text = try await TestHTTP.request(port: server.port, "GET", "/metrics").text
        let lines = text.split(separator: "\n")
        let typed = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
        let helped = Set(lines.filter { $0.hasPrefix("# HELP ") }.map { $0.split(separator: " ")[2] })
        #expect(!typed.isEmpty)
        #expect(typed.filter { !helped.contains($0) } == [])
        for expected in [
            #"coordinatord_events_total{outcome="applied"} 2"#, #"coordinatord_events_refused_total{reason="undeclared_event"} 1"#,
            "coordinatord_sign_in_failures_total 1", "coordinatord_password_queue_depth 0",
            "coordinatord_sessions_resident 1", "coordinatord_session_evictions_total 0",
            #"coordinatord_build_info{version=""#, "coordinatord_database_bytes ", "coordinatord_writer_queue_depth 0",
            "coordinatord_wal_checkpoint_failures_total 0", "coordinatord_wal_pages ",
            "coordinatord_password_queue_wait_seconds_total ",
            // logIn only navigates, without the database; a failed sign-in records the failure, so
            // its flow runs on the writer.
            #"coordinatord_event_flows_total{connection="none"} 1"#,
            #"coordinatord_event_flows_total{connection="writer"} 1"#,
        ] {
            #expect(text.contains(expected), "\(expected)")
        }
    }

    /// JSON logs: one object per line, the request id the response echoes, the client address
    /// as the trusted-proxy rule decides it, and a path that cannot forge a line.
    @Test func jsonLogsCarryTheRequestIdAndTheClient() async throws {
        let server = try await ServerProcess.start(
            arguments: ["--log-level", "info", "--log-format", "json", "--trusted-proxy", "127.0.0.1"])
        let response = try await TestHTTP.request(
            port: server.port, "GET", "/healthz", headers: ["X-Forwarded-For": "198.51.100.4"])
        let requestID = try #require(response.headers["x-request-id"])
        _ = try await TestHTTP.request(port: server.port, "GET", "/nothing%0a2026-01-01T00:00:00Z%20forged")
        #expect(try await server.stop() == 0)
        let log = try String(contentsOfFile: server.databasePath + ".log", encoding: .utf8)
        let entries = log.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: String] ?? [:]
        }
        #expect(entries.allSatisfy { !$0.isEmpty })
        let request = try #require(entries.first { $0["request_id"] == requestID })
        #expect(request["client"] == "198.51.100.4")
        #expect(request["path"] == "/healthz")
        #expect(request["status"] == "200")
        #expect(entries.contains { $0["path"] == "/nothing\\u{a}2026-01-01T00:00:00Z forged" })
    }

    @Test func textLogsEscapeWhatTheClientControls() async throws {
        let server = try await ServerProcess.start(arguments: ["--log-level", "info"])
        _ = try await TestHTTP.request(port: server.port, "GET", "/nothing%0a2026-01-01T00:00:00Z%20forged")
        #expect(try await server.stop() == 0)
        let log = try String(contentsOfFile: server.databasePath + ".log", encoding: .utf8)
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("2026-01-01T00:00:00Z forged") })
        #expect(log.contains("/nothing\\u{a}2026-01-01T00:00:00Z forged"))
    }

    /// The OpenAPI document and the server agree on the edges; responses say what they are.
    @Test func edgesAgreeWithTheDocumentAndResponsesCarrySecurityHeaders() async throws {
        let server = try await ServerProcess.start()
        let nullPlatform = try await TestHTTP.request(
            port: server.port, "POST", "/v1/sessions", headers: ["Content-Type": "application/json"],
            body: #"{"platform":null}"#)
        #expect(nullPlatform.status == 422)
        var client = try await SessionClient.create(port: server.port)
        let emptyKey = try await client.send("logIn", headers: ["Idempotency-Key": ""])
        #expect(emptyKey.status == 400)
        let document = try String(
            contentsOf: OpenAPITests.repository.appendingPathComponent("api/openapi.yaml"), encoding: .utf8)
        #expect(document.contains("schema: { type: string, minLength: 1, maxLength: 200, pattern: '^[!-~]+$' }"))

        let page = try await TestHTTP.request(port: server.port, "GET", "/")
        #expect(page.headers["x-content-type-options"] == "nosniff")
        #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        #expect(page.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(emptyKey.headers["x-content-type-options"] == "nosniff")
    }
}
