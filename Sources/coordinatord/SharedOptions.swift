import ArgumentParser
import Logging

/// Where the database and its migrations are.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "Path of the SQLite database file; its folder is created if missing.")
    var database = "./data/coordinatord.sqlite"

    @Option(help: "Folder of the NNNN_name.sql migrations (found next to the binary when omitted).")
    var migrations: String?
}

/// How much to log.
struct LogOptions: ParsableArguments {
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    /// Sends swift-log output to standard error at the chosen level.
    func bootstrap() -> Logger {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "coordinatord")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
