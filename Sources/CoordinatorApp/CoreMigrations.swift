import Store

/// coordinatord's own migrations (its sessions, journal, effects tables), built into this module
/// from the repository's `migrations/` by the EmbedFiles plugin: what `serve` and a flow test
/// apply before an app's own.
package enum CoreMigrations {
    /// The migrations for `dialect`; those of the folder `override` instead when given
    /// (`--migrations`, which holds a `sqlite` and a `postgresql` folder).
    package static func load(_ dialect: SQLDialect, override: String?) throws -> [Migration] {
        if let override { return try Migration.load(directory: override + "/" + dialect.rawValue) }
        let files = EmbeddedFiles.files(in: "migrations/" + dialect.rawValue)
        guard !files.isEmpty else { throw MigrationError(description: "this build has no \(dialect) migrations") }
        return try Migration.load(files: files)
    }
}
