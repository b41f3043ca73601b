import ArgumentParser

/// The sample app's own settings: `serve` takes each as a flag or a `COORDINATORD_*` variable.
struct SampleAppSettings: ParsableArguments, Sendable {
    @Option(help: "E-mails one client may try to register per minute (twice that at once).")
    var registrationsPerMinute = 10

    func validate() throws {
        guard registrationsPerMinute >= 1 else { throw ValidationError("--registrations-per-minute must be at least 1.") }
    }
}
