import Foundation
import Store

/// The files coordinatord needs at run time (its migrations, the OpenAPI document, the web
/// client), built into the binary from the repository's `migrations/`, `api/` and `web/` by the
/// EmbedFiles plugin: nothing is looked up beside the binary.
enum ShippedFiles {
    /// coordinatord's own migrations for `dialect`; those of the folder `override` instead when given
    /// (`--migrations`, which holds a `sqlite` and a `postgresql` folder).
    static func migrations(_ dialect: SQLDialect, override: String?) throws -> [Migration] {
        if let override { return try Migration.load(directory: override + "/" + dialect.rawValue) }
        let files = EmbeddedFiles.files(in: "migrations/" + dialect.rawValue)
        guard !files.isEmpty else { throw MigrationError(description: "this build has no \(dialect) migrations") }
        return try Migration.load(files: files)
    }

    /// The bytes of `path` (`api/openapi.yaml`, `web/index.html`, …).
    static func file(_ path: String) throws -> [UInt8] {
        guard let data = EmbeddedFiles.data(path) else {
            throw MigrationError(description: "this build has no \(path)")
        }
        return Array(data)
    }
}
