import Foundation

/// Finds the files that ship beside the binary (migrations, the OpenAPI document, the web
/// client) with no configuration, wherever the binary was started from: installed
/// (`bin/coordinatord` beside `share/coordinatord/NAME`), in a container, or built in the
/// repository (`.build/debug/coordinatord`, whose ancestor holds `Package.swift` and NAME).
enum AssetLocator {
    /// The path of `name` (a file or folder of the repository), or an error naming the places tried.
    static func locate(_ name: String, explicit: String? = nil) throws -> String {
        if let explicit { return explicit }
        let executable = URL(fileURLWithPath: executablePath()).resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [
            executable.appendingPathComponent("../share/coordinatord/\(name)"),
            executable.appendingPathComponent(name),
            executable.appendingPathComponent("../\(name)"),
        ]
        var folder = executable
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                candidates.append(folder.appendingPathComponent(name))
            }
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: name))
        if let found = candidates.map(\.standardizedFileURL.path).first(where: FileManager.default.fileExists(atPath:)) {
            return found
        }
        throw LocatorError(description: "\(name) not found near \(executable.path)")
    }

    private static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

struct LocatorError: Error, CustomStringConvertible {
    let description: String
}
