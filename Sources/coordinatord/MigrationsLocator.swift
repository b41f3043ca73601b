import Foundation

/// Finds the migrations folder with no configuration, wherever the binary was started from:
/// installed (`bin/coordinatord` beside `share/coordinatord/migrations`), in a container
/// (`/app/migrations`), or built in the repository (`.build/debug/coordinatord`, whose
/// ancestor holds `Package.swift` and `migrations/`).
enum MigrationsLocator {
    static func locate(explicit: String?) throws -> String {
        if let explicit { return explicit }
        let executable = URL(fileURLWithPath: executablePath()).resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [
            executable.appendingPathComponent("../share/coordinatord/migrations"),
            executable.appendingPathComponent("migrations"),
            executable.appendingPathComponent("../migrations"),
        ]
        var folder = executable
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                candidates.append(folder.appendingPathComponent("migrations"))
            }
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: "migrations"))
        var isFolder: ObjCBool = false
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.standardizedFileURL.path, isDirectory: &isFolder)
            && isFolder.boolValue
        {
            return candidate.standardizedFileURL.path
        }
        throw LocatorError(
            description: "no migrations folder found near \(executable.path); pass --migrations or set COORDINATORD_MIGRATIONS")
    }

    private static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

struct LocatorError: Error, CustomStringConvertible {
    let description: String
}
