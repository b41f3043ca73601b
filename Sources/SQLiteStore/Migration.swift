import Foundation

/// One schema change: `migrations/NNNN_name.sql`, applied once, in version order.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// Reads every `NNNN_name.sql` file of `directory`, sorted by version.
    /// Other files are ignored; two files with one version are an error.
    public static func load(directory: String) throws -> [Migration] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        var migrations: [Migration] = []
        for file in files where file.hasSuffix(".sql") {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"), let version = Int(stem[..<underscore]) else {
                throw MigrationError(description: "migration file \(file) is not named NNNN_name.sql")
            }
            let sql = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            migrations.append(Migration(version: version, name: String(stem[stem.index(after: underscore)...]), sql: sql))
        }
        migrations.sort { $0.version < $1.version }
        for (previous, next) in zip(migrations, migrations.dropFirst()) where previous.version == next.version {
            throw MigrationError(description: "two migrations have version \(next.version)")
        }
        return migrations
    }
}

/// Why migrating failed: a bad file name, or a database this build does not understand.
public struct MigrationError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
