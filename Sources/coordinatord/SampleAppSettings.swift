import ArgumentParser
import CoordinatorServer
import Foundation

/// The sample app's own settings: `serve` takes each as a flag or a `COORDINATORD_*` variable.
struct SampleAppSettings: ParsableArguments, Sendable {
    @Option(help: "E-mails one client may try to register per minute (twice that at once).")
    var registrationsPerMinute = 10

    @Option(help: "URL the welcome message of each new user is POSTed to (a mail relay's webhook); unset: not sent.")
    var welcomeWebhook: String?

    func validate() throws {
        guard registrationsPerMinute >= 1 else { throw ValidationError("--registrations-per-minute must be at least 1.") }
        if let welcomeWebhook, welcomeURL == nil {
            throw ValidationError("--welcome-webhook takes an http or https URL, not \"\(welcomeWebhook)\".")
        }
    }

    /// `welcomeWebhook` as a URL, when it is an http(s) one.
    var welcomeURL: URL? { URL(serviceSetting: welcomeWebhook) }
}
