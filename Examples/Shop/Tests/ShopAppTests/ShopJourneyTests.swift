import Foundation
import Testing

/// The shop's journey over HTTP, on the real `shop` binary with a real SQLite file, through
/// curl as a client would.
@Suite struct ShopJourneyTests {
    /// The built `shop` next to the test bundle.
    static var binary: URL {
        var folder = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("shop")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "shop")
    }

    /// Runs blocking work on a thread of its own, never on Swift's pool.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// Sends a request with curl; the status and the JSON body.
    static func call(_ method: String, _ url: String, token: String? = nil, body: String? = nil) async throws
        -> (status: Int, json: [String: Any])
    {
        let output = try await offPool { () -> String in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            var arguments = ["-s", "-X", method, "-w", "\n%{http_code}", url, "-H", "Content-Type: application/json"]
            if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
            if let body { arguments += ["-d", body] }
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let json = (try? JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8)))
        return (Int(lines.last ?? "") ?? 0, json as? [String: Any] ?? [:])
    }

    @Test func browseAddToCartAndCheckOutOverHTTP() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("shop.sqlite").path
        let server = Process()
        server.executableURL = Self.binary
        server.arguments = ["serve", "--port", "0", "--database", database, "--log-level", "warning"]
        let output = Pipe()
        server.standardOutput = output
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL) }
        let line = try await Self.offPool { () -> String in
            var text = ""
            while !text.contains("\n") {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }
        let base = try #require(line.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(line.hasPrefix("shop listening on http://127.0.0.1:"))

        let created = try await Self.call("POST", base + "/v1/sessions", body: "{}")
        #expect(created.status == 201)
        var token = try #require(created.json["token"] as? String)
        let id = try #require((created.json["session"] as? [String: Any])?["id"] as? String)
        var state = try #require(created.json["session"] as? [String: Any])

        func send(_ event: String, _ payload: [String: Any] = [:]) async throws -> Int {
            let body = try JSONSerialization.data(
                withJSONObject: ["screen": state["top"] as? String ?? "", "event": event, "payload": payload])
            let answer = try await Self.call(
                "POST", base + "/v1/sessions/\(id)/events", token: token, body: String(decoding: body, as: UTF8.self))
            if answer.status == 200 {
                state = answer.json
                if let rotated = state["token"] as? String { token = rotated }
            }
            return answer.status
        }
        func topName() -> String {
            let layers = state["stack"] as? [[String: Any]] ?? []
            let screens = layers.flatMap { $0["screens"] as? [[String: Any]] ?? [] }
            return screens.first { $0["id"] as? String == state["top"] as? String }?["name"] as? String ?? ""
        }

        #expect(try await send("start") == 200)
        #expect(topName() == "catalogue")
        #expect(try await send("openProduct", ["productId": 10]) == 200)
        #expect(try await send("openProduct", ["productId": 11]) == 200)
        #expect(try await send("addToCart") == 200)
        #expect(try await send("openCart") == 200)
        #expect(try await send("remove", ["productId": "eleven"]) == 422)
        #expect(try await send("checkout") == 200)
        #expect(topName() == "checkout.address")
        #expect(try await send("next", ["name": "Ada", "street": "1 Loop Rd", "city": "Turin"]) == 200)
        #expect(topName() == "checkout.confirm")
        #expect(try await send("confirm") == 200)
        #expect(topName() == "checkout.placed")
        #expect(try await send("done") == 200)
        #expect(topName() == "catalogue")

        let catalogue = try await Self.call("GET", base + "/v1/screens")
        let names = (catalogue.json["screens"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.sorted() == [
            "cart", "catalogue", "checkout.address", "checkout.confirm", "checkout.placed", "product", "welcome",
        ])
        #expect(try await Self.call("GET", base + "/healthz").status == 200)
    }
}
