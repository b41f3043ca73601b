/// Turns `COORDINATORD_*` environment variables into command-line options, so that every
/// option has one definition (in ArgumentParser) and two sources. A flag given on the
/// command line wins over the environment.
enum EnvironmentArguments {
    /// Options that can come from the environment: `--log-level` ← `COORDINATORD_LOG_LEVEL`.
    static let options = [
        "host", "port", "database", "migrations", "log-level", "log-format", "max-body-bytes", "connection-limit",
        "per-address-connection-limit", "idle-timeout", "header-timeout", "request-timeout", "max-query-arguments",
        "connection-memory-bytes", "trusted-proxy", "threads", "shutdown-grace", "max-resident-sessions",
        "session-idle-timeout", "sweep-interval", "max-snapshot-bytes", "max-idempotency-keys",
        "password-memory-mib", "password-iterations", "hash-concurrency", "max-queued-hashes",
        "registrations-per-minute", "max-database-pages", "database-pool-size", "unused-session-timeout",
        "sessions-per-minute", "sweep-batch-size", "hashes-per-client",
    ]

    static func variable(for option: String) -> String {
        "COORDINATORD_" + option.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// `arguments` with `--option value` added for each set variable whose option is absent.
    /// With no subcommand, `serve` is meant; `--help` and `--version` pass through untouched.
    static func merge(_ arguments: [String], environment: [String: String]) -> [String] {
        if arguments.contains(where: { ["--help", "-h", "--version", "help"].contains($0) }) { return arguments }
        if arguments.first == "routes" { return arguments }
        let named = ["serve", "migrate"].contains(arguments.first ?? "")
        let subcommand = named ? arguments[0] : "serve"
        let rest = named ? Array(arguments.dropFirst()) : arguments
        let allowed = subcommand == "migrate" ? ["database", "migrations", "log-level", "log-format"] : options
        var merged = [subcommand] + rest
        for option in allowed {
            guard let value = environment[variable(for: option)], !value.isEmpty else { continue }
            let flag = "--" + option
            if rest.contains(where: { $0 == flag || $0.hasPrefix(flag + "=") }) { continue }
            merged += [flag, value]
        }
        return merged
    }
}
