import Foundation

/// One schema change: `NNNN_name.sql`, applied once, in version order within its scope.
/// Each backend has its own files (`migrations/sqlite/`, `migrations/postgresql/`), numbered alike.
///
/// A scope is whose schema it is: `core` for coordinatord's own tables (sessions, stored
/// answers), an app's name for that app's models. Each scope numbers its migrations on its own,
/// so an app's migrations never clash with the core's or another release's.
public struct Migration: Sendable, Equatable {
    /// The scope of coordinatord's own migrations.
    public static let coreScope = "core"

    /// Whose schema: `core` or an app's name.
    public let scope: String
    /// Its number, from its file name; unique within its scope.
    public let version: Int
    /// Its name, from its file name.
    public let name: String
    /// The statements it runs.
    public let sql: String

    /// Migration `version`_`name` of `scope`, running `sql`.
    public init(scope: String = Migration.coreScope, version: Int, name: String, sql: String) {
        self.scope = scope
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The migrations for `dialect` that an app ships as a resource folder of its target
    /// (`resources: [.copy("Migrations")]`, with a `sqlite` and a `postgresql` folder inside):
    /// `try Migration.load(from: Bundle.module, scope: "shop", dialect: dialect)`.
    public static func load(
        from bundle: Bundle, folder: String = "Migrations", scope: String, dialect: SQLDialect
    ) throws -> [Migration] {
        guard let url = bundle.url(forResource: folder, withExtension: nil) else {
            throw MigrationError(description: "the \(scope) app's \(folder) folder is missing beside the binary")
        }
        let path = url.appendingPathComponent(dialect.rawValue).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw MigrationError(description: "the \(scope) app has no migrations for \(dialect) (\(folder)/\(dialect))")
        }
        return try load(directory: path, scope: scope)
    }

    /// Reads every `NNNN_name.sql` file of `directory` as migrations of `scope`, sorted by version.
    /// Other files are ignored; two files with one version are an error.
    public static func load(directory: String, scope: String = Migration.coreScope) throws -> [Migration] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue else {
            throw MigrationError(description: "the migrations folder \(directory) does not exist")
        }
        var files: [String: Data] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasSuffix(".sql") {
            files[file] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))
        }
        return try load(files: files, scope: scope)
    }

    /// The migrations of `scope` in `files` (file name → contents): every `NNNN_name.sql`,
    /// sorted by version. Other names are ignored; two files with one version are an error, and
    /// so is no file at all (a folder missing, misspelled or not embedded: the server would start
    /// without the app's tables), said in one line at start.
    public static func load(files: [String: Data], scope: String = Migration.coreScope) throws -> [Migration] {
        guard files.keys.contains(where: { $0.hasSuffix(".sql") }) else {
            throw MigrationError(
                description: "no migration files (NNNN_name.sql) of \(scope): its Migrations folder for this database is missing, "
                    + "empty, or not embedded (the EmbedFiles plugin, and the folder excluded from the target's sources)")
        }
        var migrations: [Migration] = []
        for (file, contents) in files where file.hasSuffix(".sql") {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"), let version = Int(stem[..<underscore]) else {
                throw MigrationError(description: "migration file \(file) is not named NNNN_name.sql")
            }
            guard let sql = String(data: contents, encoding: .utf8) else {
                throw MigrationError(description: "migration file \(file) is not UTF-8")
            }
            migrations.append(
                Migration(scope: scope, version: version, name: String(stem[stem.index(after: underscore)...]), sql: sql))
        }
        migrations.sort { $0.version < $1.version }
        for (previous, next) in zip(migrations, migrations.dropFirst()) where previous.version == next.version {
            throw MigrationError(description: "two migrations have version \(next.version)")
        }
        return migrations
    }
}

extension Migration {
    /// A recorded migration: its scope and version.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        /// Whose schema: `core` or an app's name.
        public let scope: String
        /// The version within the scope.
        public let version: Int

        /// The key of `version` in `scope`.
        public init(scope: String = Migration.coreScope, version: Int) {
            self.scope = scope
            self.version = version
        }

        public var description: String { "\(scope)/\(version)" }
    }

    /// Throws when `recorded` (key → name, as the database has it) holds a migration that
    /// `known` does not: a newer build or another app wrote the schema, and this build cannot
    /// understand it.
    public static func refuseUnknown(_ recorded: [Key: String], known migrations: [Migration]) throws {
        let known = Dictionary(
            migrations.map { (Key(scope: $0.scope, version: $0.version), $0.name) }, uniquingKeysWith: { first, _ in first })
        for (key, name) in recorded.sorted(by: { ($0.key.scope, $0.key.version) < ($1.key.scope, $1.key.version) })
        where known[key] != name {
            throw MigrationError(
                description:
                    "the database has migration \(key.scope)/\(key.version)_\(name), which this build does not know; "
                    + "it was written by a newer coordinatord or by another app")
        }
    }
}

/// Why migrating failed: a bad file name, or a database this build does not understand.
public struct MigrationError: Error, CustomStringConvertible, Sendable {
    public let description: String

    /// An error saying `description`.
    public init(description: String) {
        self.description = description
    }
}
