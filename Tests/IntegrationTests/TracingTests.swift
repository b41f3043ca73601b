import Foundation
import TestSupport
import Testing

/// One trace per request across the server's stages, exported over OTLP/HTTP (swift-otel) to a
/// collector the test runs on localhost; W3C `traceparent` taken from the client and given back.
@Suite struct TracingTests {
    /// Every span the collector received so far, its ids in hex (as `traceparent` writes them;
    /// swift-otel's OTLP/JSON sends them in Base64, protobuf's JSON mapping of bytes).
    static func spans(_ collector: WebhookReceiver) -> [[String: Any]] {
        collector.received.filter { $0.path == "/v1/traces" }.flatMap { request -> [[String: Any]] in
            let body = SessionClient.parse(request.body)
            return (body["resourceSpans"] as? [[String: Any]] ?? []).flatMap { resource in
                (resource["scopeSpans"] as? [[String: Any]] ?? []).flatMap { $0["spans"] as? [[String: Any]] ?? [] }
            }.map { span in
                var span = span
                for key in ["traceId", "spanId", "parentSpanId"] {
                    if let text = span[key] as? String { span[key] = hex(text) }
                }
                return span
            }
        }
    }

    /// An id in hex, whether it came in hex or in Base64.
    static func hex(_ text: String) -> String {
        guard text.count % 4 == 0, let bytes = Data(base64Encoded: text), bytes.count == 8 || bytes.count == 16 else { return text }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    @Test func aRequestsStagesAreOneTraceContinuingTheClients() async throws {
        let collector = try WebhookReceiver()
        defer { collector.stop() }
        let relay = try WebhookReceiver()
        defer { relay.stop() }
        let server = try await ServerProcess.start(
            arguments: [
                "--otlp-endpoint", collector.url(""), "--otlp-protocol", "http/json", "--welcome-webhook", relay.url("/welcome"),
            ])
        var client = try await SessionClient.create(port: server.port)
        let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
        let parentID = "00f067aa0ba902b7"
        let answer = try await client.send("signUp", headers: ["traceparent": "00-\(traceID)-\(parentID)-01"])
        #expect(answer.status == 200)
        let returned = try #require(answer.headers["traceparent"])
        #expect(returned.hasPrefix("00-\(traceID)-"), "the answer continues the client's trace: \(returned)")
        let serverSpanID = String(returned.split(separator: "-")[2])
        try await waitUntil("the collector to receive the request's spans") {
            Self.spans(collector).contains { $0["name"] as? String == "POST /v1/sessions/{id}/events" }
                && Self.spans(collector).contains { $0["name"] as? String == "publish to live streams" }
        }
        let spans = Self.spans(collector).filter { $0["traceId"] as? String == traceID }
        let request = try #require(spans.first { $0["name"] as? String == "POST /v1/sessions/{id}/events" })
        #expect(request["spanId"] as? String == serverSpanID)
        #expect(request["parentSpanId"] as? String == parentID, "the server span's parent is the client's")
        // The stages, children of the server span.
        for stage in ["flow", "commit", "publish to live streams"] {
            let span = spans.first { $0["name"] as? String == stage }
            #expect(span?["parentSpanId"] as? String == serverSpanID, "\(stage): \(spans.map { $0["name"] ?? "" })")
        }

        // A registration's password work and its welcome (an effect after the commit) are spans too.
        try await Journey.expect200(client.send("next", ["email": "traced@example.com"]))
        try await Journey.expect200(client.send("next", ["password": Journey.password]))
        let finished = try await client.send("finish", ["displayName": "Traced"])
        try Journey.expect200(finished)
        let finishTrace = try #require(finished.headers["traceparent"]?.split(separator: "-").dropFirst().first.map(String.init))
        try await waitUntil("the password work's and the effect's spans") {
            let names = Self.spans(collector).compactMap { $0["name"] as? String }
            return names.contains("prepare: password work") && names.contains("effect sendWelcome")
        }
        let effect = try #require(Self.spans(collector).first { $0["name"] as? String == "effect sendWelcome" })
        #expect(effect["traceId"] as? String == finishTrace, "the effect's run continues the trace of the event that asked")
        #expect((effect["kind"] as? Int) == 3 || (effect["kind"] as? String)?.contains("CLIENT") == true, "\(effect)")
        try await server.stop()
    }

    @Test func withoutAnEndpointNothingIsTracedAndNoHeaderIsGiven() async throws {
        let server = try await ServerProcess.start()
        var client = try await SessionClient.create(port: server.port)
        let answer = try await client.send("signUp", headers: ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"])
        #expect(answer.status == 200)
        #expect(answer.headers["traceparent"] == nil)
        try await server.stop()
    }

    @Test func aWrongEndpointIsRefusedAtStartInOneLine() async throws {
        let result = try await TestHTTP.offPool {
            try ChildProcess.run(
                ServerProcess.binaryPath, ["serve", "--database", ServerProcess.temporaryDatabasePath(), "--otlp-endpoint", "collector:4318"])
        }
        #expect(result.status != 0)
        #expect(result.output.contains("--otlp-endpoint takes an http or https URL"), "\(result.output)")
    }
}
