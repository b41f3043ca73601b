import ArgumentParser

/// The command line: `coordinatord serve`, `coordinatord migrate`, `coordinatord --version`.
@main
struct Coordinatord: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "coordinatord",
        abstract: "Hosts server-side navigation sessions over HTTP.",
        discussion: "Every option can also be set with a COORDINATORD_* environment variable, "
            + "for example COORDINATORD_PORT=9000; a flag on the command line wins.",
        version: version,
        subcommands: [Serve.self, Migrate.self, Routes.self],
        defaultSubcommand: Serve.self)

    static func main() async {
        let arguments = EnvironmentArguments.merge(
            Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current)
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
