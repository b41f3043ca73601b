import ArgumentParser
import Foundation

/// A long option as ArgumentParser declares it: its name, and whether it takes a value.
///
/// Read from ArgumentParser's own definitions (the JSON of `_dumpHelp()`, the tool-info document
/// behind `--experimental-dump-help`), so that an option is defined once, by its `@Option`, and
/// its `COORDINATORD_*` variable follows. Chosen over swift-configuration, which would define
/// each option a second time beside ArgumentParser (that still parses the command line and
/// writes the help) and add a dependency to every app's build.
struct DeclaredOption: Equatable, Sendable {
    /// The long name, without `--`.
    let name: String
    /// `--name value` (an option), or `--name` alone (a flag).
    let takesValue: Bool
    /// It may be given more than once (`--trusted-proxy a --trusted-proxy b`).
    let isRepeating: Bool

    /// Its environment variable: `--log-level` ← `COORDINATORD_LOG_LEVEL`.
    var variable: String { "COORDINATORD_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// Whether `token` (`--name`, or `--name=value`) gives this option.
    func isGiven(by token: String) -> Bool {
        token == "--" + name || token.hasPrefix("--" + name + "=")
    }

    /// The long options `type` declares that the help shows (hidden ones, like `--test-hooks`,
    /// are for the command line only), without `--help` and `--version`.
    static func all(of type: any ParsableArguments.Type) -> [DeclaredOption] {
        guard let info = try? JSONDecoder().decode(ToolInfo.self, from: Data(type._dumpHelp().utf8)) else { return [] }
        return (info.command.arguments ?? []).compactMap { argument in
            guard argument.kind != "positional", argument.shouldDisplay ?? true,
                let long = argument.names?.first(where: { $0.kind == "long" })?.name, long != "help", long != "version"
            else { return nil }
            return DeclaredOption(name: long, takesValue: argument.kind == "option", isRepeating: argument.isRepeating ?? false)
        }
    }

    /// The part of ArgumentParser's tool-info document (serialization version 0) read here.
    private struct ToolInfo: Decodable {
        struct Command: Decodable {
            let arguments: [Argument]?
        }
        struct Argument: Decodable {
            let kind: String
            let names: [Name]?
            let isRepeating: Bool?
            let shouldDisplay: Bool?
        }
        struct Name: Decodable {
            let kind: String
            let name: String
        }
        let command: Command
    }
}
