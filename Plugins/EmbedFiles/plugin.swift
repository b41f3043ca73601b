import Foundation
import PackagePlugin

/// Builds files the server needs at run time into its module, so that a binary built from any
/// folder (an app's package depending on this one) and copied anywhere serves with nothing beside it.
///
/// Apps use it too (the `EmbedFiles` plugin product): in an app's target it embeds the target's
/// `Migrations` and `Resources` folders, whichever exist, read back with
/// `EmbeddedFiles.files(in: "Migrations/sqlite")` (`Migration.load(files:scope:)`) or
/// `EmbeddedFiles.data("Resources/…")`. Exclude those folders from the target's sources.
///
/// Why a build-tool plugin rather than SwiftPM resources: resources must lie inside the target's
/// folder, while `migrations/`, `web/` and `api/openapi.yaml` stay at the top of the repository
/// (one copy of each); and a resource bundle must travel beside the binary, its absence a
/// `fatalError` in `Bundle.module` on Linux. The tool is one small Foundation-only file, built
/// once for the host; the generated source is a few Base64 string literals (about 60 KB), which
/// compile in no time.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        // What each target builds in: a base folder, and the files or folders under it.
        let (base, paths): (URL, [String])
        switch target.name {
        case "CoordinatorServer":
            (base, paths) = (context.package.directoryURL, ["web", "api/openapi.yaml"])
        case "CoordinatorApp":
            (base, paths) = (context.package.directoryURL, ["migrations"])
        case "SampleApp", "AccountProtection":
            (base, paths) = (target.directoryURL, ["Migrations"])
        default:
            // An app's target: its `Migrations` and `Resources` folders.
            let found = ["Migrations", "Resources"].filter {
                FileManager.default.fileExists(atPath: target.directoryURL.appendingPathComponent($0).path)
            }
            guard !found.isEmpty else {
                throw EmbedFilesError(
                    description: "EmbedFiles embeds a target's Migrations and Resources folders; \(target.name) has neither")
            }
            (base, paths) = (target.directoryURL, found)
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(paths.joined(separator: ", ")) in \(target.name)",
                executable: try context.tool(named: "EmbedFilesTool").url,
                arguments: [output.path, base.path] + paths,
                inputFiles: try paths.flatMap { try Self.files(at: base.appendingPathComponent($0)) },
                outputFiles: [output]),
        ]
    }

    /// The file at `url`, or every file under it: what the command reads, so that a change reruns it.
    private static func files(at url: URL) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw EmbedFilesError(description: "\(url.path) does not exist")
        }
        guard isFolder.boolValue else { return [url] }
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { !$0.hasPrefix(".") }
            .flatMap { try files(at: url.appendingPathComponent($0)) }
    }
}

struct EmbedFilesError: Error, CustomStringConvertible {
    let description: String
}
