import ArgumentParser
import Logging
import Store

/// Where the database and its migrations are.
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: "Path of the SQLite database file (its folder is created if missing), or a postgresql:// URL of a database that several nodes share.")
    var database = "./data/coordinatord.sqlite"

    @Option(
        help: "Folder of coordinatord's own migrations, instead of those built into the binary: a sqlite and a postgresql folder of NNNN_name.sql files.")
    var migrations: String?

    @Option(help: "PostgreSQL connections this node keeps at most.")
    var databasePoolSize = 8

    /// The SQL the chosen database speaks.
    var dialect: SQLDialect { DatabaseLocation(database).dialect }

    /// coordinatord's own migrations, then the app's, for the chosen database.
    func allMigrations(_ app: ServedApp) throws -> [Migration] {
        try app.allMigrations(dialect, coreOverride: migrations)
    }
}

/// How much to log, and how.
struct LogOptions: ParsableArguments {
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(help: "Log format: text (one readable line per event) or json (one JSON object per line).")
    var logFormat: LogFormat = .text

    /// Sends swift-log output to standard error at the chosen level and format.
    func bootstrap(label: String) -> Logger {
        let (level, format) = (logLevel, logFormat)
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                return JSONLogHandler(label: label, logLevel: level)
            }
        }
        return Logger(label: label)
    }
}

/// The log line formats.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// A setting that is `on` or `off` (`--journal`, `--gather-commits`).
enum OnOff: String, ExpressibleByArgument, CaseIterable {
    case on, off
}
