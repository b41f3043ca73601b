import ArgumentParser

/// `serve --help` with the app's own settings after coordinatord's options: ArgumentParser
/// knows only the types it parses, and the app's settings are parsed on their own.
enum AppSettingsHelp {
    /// Whether `arguments` ask for the help of `serve` (`serve --help`, `serve -h`, `help serve`).
    static func isRequested(_ arguments: [String]) -> Bool {
        (arguments.first == "serve" && arguments.contains { $0 == "--help" || $0 == "-h" })
            || arguments == ["help", "serve"]
    }

    /// The help of `serve`, then an `APP OPTIONS` section with the app's settings, if it has any.
    static func serveHelp(_ app: ServedApp) -> String {
        let serve = Command.helpMessage(for: Serve.self)
        guard !DeclaredOption.all(of: app.settings).isEmpty else { return serve }
        // The app's own help without its usage line and `--help`: the options only.
        let lines = app.settings.helpMessage().split(separator: "\n", omittingEmptySubsequences: false)
        let options = lines.drop { $0 != "OPTIONS:" }.dropFirst().filter { !$0.contains("--help") }
        return serve + "\n\nAPP OPTIONS (\(app.name)):\n" + options.joined(separator: "\n")
    }
}
