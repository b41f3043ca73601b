import Foundation

// Writes a Swift file that holds files of the package, for the EmbedFiles build-tool plugin:
//
//     EmbedFilesTool OUTPUT.swift BASE PATH...
//
// Each PATH (a file, or a folder taken with everything under it) is relative to BASE and is the
// key its bytes are found under at run time. The bytes are Base64 in a string literal: a string
// literal of any length compiles in no time, where an array literal of as many bytes takes the
// type checker seconds and lots of memory.

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: EmbedFilesTool OUTPUT.swift BASE PATH...\n".utf8))
    exit(2)
}
let output = URL(fileURLWithPath: arguments[arguments.startIndex])
let base = URL(fileURLWithPath: arguments[arguments.startIndex + 1], isDirectory: true)

/// The files at `path` (relative to `base`): itself, or every file under it, sorted.
func files(at path: String) throws -> [String] {
    var isFolder: ObjCBool = false
    let url = base.appendingPathComponent(path)
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
        throw EmbedError(description: "\(url.path) does not exist")
    }
    guard isFolder.boolValue else { return [path] }
    return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        .filter { !$0.hasPrefix(".") }
        .flatMap { try files(at: path + "/" + $0) }
}

struct EmbedError: Error, CustomStringConvertible {
    let description: String
}

do {
    var entries = ""
    for path in try arguments.dropFirst(2).flatMap(files(at:)) {
        let bytes = try Data(contentsOf: base.appendingPathComponent(path))
        entries += "        \"\(path)\": \"\(bytes.base64EncodedString())\",\n"
    }
    let source = """
        // Generated at build time by EmbedFilesTool (the EmbedFiles plugin) from the package's files; do not edit.
        import Foundation

        /// Files built into this module, by their path in the package.
        enum EmbeddedFiles {
            /// The bytes of the file at `path`, or nil when no such file was built in.
            static func data(_ path: String) -> Data? {
                base64[path].flatMap { Data(base64Encoded: $0) }
            }

            /// The files directly inside `folder`: file name → bytes.
            static func files(in folder: String) -> [String: Data] {
                var found: [String: Data] = [:]
                for path in base64.keys where path.hasPrefix(folder + "/") {
                    let name = path.dropFirst(folder.count + 1)
                    if !name.contains("/"), let bytes = data(path) { found[String(name)] = bytes }
                }
                return found
            }

            private static let base64: [String: String] = [
        \(entries.isEmpty ? "        :\n" : entries)    ]
        }

        """
    // Written only when it changed, so an unchanged file does not recompile the module.
    if (try? Data(contentsOf: output)) != Data(source.utf8) {
        try Data(source.utf8).write(to: output, options: .atomic)
    }
} catch {
    FileHandle.standardError.write(Data("EmbedFilesTool: error: \(error)\n".utf8))
    exit(1)
}
