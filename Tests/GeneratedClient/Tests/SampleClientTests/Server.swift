import Foundation
import Testing

/// The real `coordinatord` binary (`OPENAPI_SERVER_BINARY`, else the repository's debug build) serving
/// the sample app on a free port with a fresh SQLite file; stopped when the test ends.
final class Server: Sendable {
    let url: URL
    private let process: Process

    init() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let binary = ProcessInfo.processInfo.environment["OPENAPI_SERVER_BINARY"]
            ?? repository.appendingPathComponent(".build/debug/coordinatord").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("generated-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "serve", "--port", "0", "--database", folder.appendingPathComponent("db.sqlite").path, "--log-level", "warning",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The first line names the port: "coordinatord listening on http://127.0.0.1:PORT".
        var seen = Data()
        let deadline = Date().addingTimeInterval(60)
        while !seen.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty || Date() > deadline {
                process.terminate()
                throw ServerError("the server did not report its port: \(String(decoding: seen, as: UTF8.self))")
            }
            seen += chunk
        }
        let line = String(decoding: seen, as: UTF8.self).split(separator: "\n")[0]
        guard line.contains("listening on http://"), let address = line.split(separator: " ").last,
            let url = URL(string: String(address))
        else {
            process.terminate()
            throw ServerError("no address in \(line)")
        }
        self.url = url
        self.process = process
    }

    /// Bounded, not `waitUntilExit`: on Linux Foundation learns of the exit when a socket the
    /// child inherited closes, which another child spawned at the same moment could hold open.
    deinit {
        process.terminate()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
