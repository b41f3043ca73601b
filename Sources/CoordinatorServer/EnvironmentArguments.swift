import ArgumentParser
import Foundation

/// The arguments of one run: the command's (for ArgumentParser), and the app's own settings'.
struct RunArguments: Equatable {
    var command: [String]
    var app: [String] = []
}

/// Turns `COORDINATORD_*` environment variables into command-line options, so that every
/// option has one definition (its `@Option`, in coordinatord's commands or in the app's
/// settings) and two sources. A flag given on the command line wins over the environment; a
/// `COORDINATORD_*` variable that names no option is refused, naming it.
enum EnvironmentArguments {
    /// The command's and the app's arguments: the command line's, split between the two, then
    /// `--option value` for each set variable whose option is absent. With no subcommand,
    /// `serve` is meant; help, `--version`, `routes` and `openapi` take the command line as it is.
    static func prepare(
        _ arguments: [String], environment: [String: String], appSettings: any ParsableArguments.Type
    ) throws -> RunArguments {
        let passThrough = ["--help", "-h", "--version", "help", "--experimental-dump-help"]
        if arguments.contains(where: passThrough.contains) || ["routes", "openapi"].contains(arguments.first ?? "") {
            return RunArguments(command: arguments)
        }
        let named = ["serve", "migrate", "check-deploy", "backup"].contains(arguments.first ?? "")
        let subcommand = named ? arguments[0] : "serve"
        let rest = named ? Array(arguments.dropFirst()) : arguments

        let serveOptions = DeclaredOption.all(of: Serve.self)
        let appOptions = DeclaredOption.all(of: appSettings)
        if let clash = appOptions.first(where: { option in serveOptions.contains { $0.name == option.name } }) {
            throw StartupError(description: "the app's setting --\(clash.name) is also an option of coordinatord; rename it")
        }
        try refuseUnknownVariables(
            environment,
            known: serveOptions + DeclaredOption.all(of: Migrate.self) + DeclaredOption.all(of: CheckDeploy.self)
                + DeclaredOption.all(of: Backup.self) + appOptions)

        // Only `serve` runs the app, so only `serve` takes its settings.
        let commandOptions: [DeclaredOption] =
            switch subcommand {
            case "serve": serveOptions
            case "check-deploy": DeclaredOption.all(of: CheckDeploy.self)
            case "backup": DeclaredOption.all(of: Backup.self)
            default: DeclaredOption.all(of: Migrate.self)
            }
        let ownOptions = subcommand == "serve" ? appOptions : []
        var run = split(rest, appOptions: ownOptions)
        run.command.insert(subcommand, at: 0)
        for option in commandOptions + ownOptions {
            guard let value = environment[option.variable], !value.isEmpty,
                !(run.command + run.app).contains(where: option.isGiven(by:))
            else { continue }
            let given = try flags(for: option, value: value)
            if ownOptions.contains(option) { run.app += given } else { run.command += given }
        }
        return run
    }

    /// The command line's tokens split: the app's options (each with its value) and the rest.
    private static func split(_ tokens: [String], appOptions: [DeclaredOption]) -> RunArguments {
        var run = RunArguments(command: [])
        var index = tokens.startIndex
        while index < tokens.endIndex {
            let token = tokens[index]
            if token == "--" {
                run.command += tokens[index...]
                break
            }
            if let option = appOptions.first(where: { $0.isGiven(by: token) }) {
                run.app.append(token)
                if option.takesValue, !token.contains("="), index + 1 < tokens.endIndex {
                    index += 1
                    run.app.append(tokens[index])
                }
            } else {
                run.command.append(token)
            }
            index += 1
        }
        return run
    }

    /// `--name value` for an option (one per comma-separated value when it repeats), `--name`
    /// for a flag set to `true`, `1` or `yes`.
    private static func flags(for option: DeclaredOption, value: String) throws -> [String] {
        let flag = "--" + option.name
        guard option.takesValue else {
            switch value.lowercased() {
            case "1", "true", "yes": return [flag]
            case "0", "false", "no": return []
            default: throw StartupError(description: "\(option.variable)=\(value): set it to true or false")
            }
        }
        guard option.isRepeating else { return [flag, value] }
        return value.split(separator: ",").flatMap { [flag, $0.trimmingCharacters(in: .whitespaces)] }
    }

    /// Refuses a `COORDINATORD_*` variable that names no option: a misspelt or retired setting
    /// would otherwise be ignored without a word.
    private static func refuseUnknownVariables(_ environment: [String: String], known: [DeclaredOption]) throws {
        let variables = Set(known.map(\.variable))
        guard let unknown = environment.keys.sorted().first(where: { $0.hasPrefix("COORDINATORD_") && !variables.contains($0) })
        else { return }
        let option = "--" + unknown.dropFirst("COORDINATORD_".count).lowercased().replacingOccurrences(of: "_", with: "-")
        throw StartupError(
            description: "unknown environment variable \(unknown): there is no option \(option) "
                + "(`serve --help` lists them, each also a COORDINATORD_* variable); unset it or correct its name")
    }
}
