import ArgumentParser
import Foundation

/// The entry point of a coordinatord server: an app's executable is
///
/// ```swift
/// import CoordinatorServer
///
/// await CoordinatorServer.main(ServedApp(name: "shop", navigation: Shop.navigation, ...))
/// ```
///
/// and gets the whole command line: `serve` (the default), `migrate`, `routes`, `openapi`, `--version`,
/// every flag also as a `COORDINATORD_*` environment variable, and, when serving, the REST API
/// of sessions, `/healthz`, `/metrics`, `/openapi.yaml`, `/v1/screens` and the web client.
public enum CoordinatorServer {
    /// The version of the server library.
    public static let version = "0.4.0"

    /// Parses the process's arguments (and `COORDINATORD_*` variables) and runs the command for
    /// `app`; exits with a one-line message on failure.
    public static func main(_ app: ServedApp) async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if AppSettingsHelp.isRequested(arguments) {
            print(AppSettingsHelp.serveHelp(app))
            return
        }
        do {
            let run = try EnvironmentArguments.prepare(
                arguments, environment: ProcessEnvironment.current, appSettings: app.settings)
            let command = try Command.parseAsRoot(run.command)
            switch command {
            case let serve as Serve:
                try await serve.run(app, settings: app.parseSettings(run.app))
            case let migrate as Migrate: try await migrate.run(app)
            case let routes as Routes: try await routes.run(app)
            case let openAPI as OpenAPICommand: try await openAPI.run(app)
            case let check as CheckDeploy: try await check.run(app)
            case let backup as Backup: try await backup.run(app)
            default:
                var command = command
                try command.run()
            }
        } catch {
            Command.exit(withError: error)
        }
    }
}

/// The command line: `serve` (the default), `migrate`, `routes`, `openapi`, `check-deploy`, `backup`, `--version`.
struct Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ProcessInfo.processInfo.processName,
        abstract: "Hosts server-side navigation sessions over HTTP.",
        discussion: "Every option can also be set with a COORDINATORD_* environment variable, "
            + "for example COORDINATORD_PORT=9000; a flag on the command line wins, and a COORDINATORD_* "
            + "variable that names no option is refused.",
        version: CoordinatorServer.version,
        subcommands: [Serve.self, Migrate.self, Routes.self, OpenAPICommand.self, CheckDeploy.self, Backup.self],
        defaultSubcommand: Serve.self)
}

/// A subcommand that needs the app to run; `CoordinatorServer.main` calls `run(_:)`.
protocol AppCommand: ParsableCommand {
    func run(_ app: ServedApp) async throws
}

extension AppCommand {
    func run() throws {
        throw ValidationError("run through CoordinatorServer.main")
    }
}
