import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension LiveServer {
    /// The executable `product` that the build put beside the running tests: in the build
    /// products folder, which holds the test runner (or, on macOS, its `.xctest` bundle).
    public static func executable(named product: String) throws -> String {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.resolvingSymlinksInPath()
        let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .map(URL.init(fileURLWithPath:))
        var folders: [URL] = []
        for binary in [running, runner, Bundle.main.executableURL].compactMap({ $0 }) {
            folders.append(binary.deletingLastPathComponent())
            // Inside a bundle (`X.xctest/Contents/MacOS/X`): the folder that holds the bundle.
            var folder = binary.deletingLastPathComponent()
            while folder.path != "/" && !folder.path.isEmpty {
                if folder.pathExtension == "xctest" { folders.append(folder.deletingLastPathComponent()) }
                folder = folder.deletingLastPathComponent()
            }
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent(product).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        let looked = Set(folders.map(\.path)).sorted().joined(separator: ", ")
        throw LiveServerError(
            "no executable \(product) beside the tests (looked in \(looked)): "
                + "`swift build` and `swift test` build it, when \(product) is an executable target of the package")
    }

    /// Waits until the server started as `pid` prints where it listens (`<app> listening on
    /// http://127.0.0.1:<port>`) into `log`; throws, with the log, when it exits first or past `deadline`.
    static func waitForPort(_ pid: pid_t, log: String, deadline: Duration) async throws -> Int {
        var end = PollingDeadline(deadline)
        while true {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let port = port(in: text) { return port }
            if let status = try Spawn.ended(pid) {
                throw LiveServerError("the server exited (code \(Spawn.exitCode(status))) before it listened:\n\(text)")
            }
            guard !end.hasPassed() else {
                throw LiveServerError("the server did not say where it listens within \(deadline):\n\(text)")
            }
            // A pause between checks of the condition, which is the loop's own.
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// The port in the line `… listening on http://host:port`, once that line is whole.
    static func port(in text: String) -> Int? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            guard let range = line.range(of: " listening on http://") else { continue }
            return line[range.upperBound...].split(separator: ":").last.flatMap { Int($0) }
        }
        return nil
    }
}
