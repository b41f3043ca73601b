import Foundation
import Navigation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends `SendWelcome` effects: a JSON `POST` to the mail relay's webhook (`--welcome-webhook`),
/// with the effect's idempotency key as its `Idempotency-Key`, so a retry after a lost answer
/// sends no second message. Without a webhook the message is not sent, and the result says so.
public struct WelcomeMessages: Sendable {
    let webhook: URL?

    public init(webhook: URL?) {
        self.webhook = webhook
    }

    /// The handlers of the sample app's effects.
    public var handlers: EffectHandlers {
        EffectHandlers().handling(SendWelcome.self) { welcome, attempt in try await send(welcome, attempt) }
    }

    func send(_ welcome: SendWelcome, _ attempt: EffectAttempt) async throws -> WelcomeSent {
        guard let webhook else { return WelcomeSent(delivery: "not sent: no --welcome-webhook") }
        var request = URLRequest(url: webhook, timeoutInterval: 10)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(attempt.idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        request.httpBody = Data(
            JSONValue.object([
                "to": .string(welcome.email), "displayName": .string(welcome.displayName),
                "subject": "Welcome to Chirp", "text": .string("Hello \(welcome.displayName), welcome to Chirp."),
            ]).serialized())
        let (_, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        switch status {
        case 200..<300: return WelcomeSent(delivery: "sent")
        // The relay refused the message itself: sending it again cannot help.
        case 400..<500 where status != 408 && status != 429:
            throw EffectFailure.permanent("the mail relay refused the message (\(status))")
        default: throw EffectFailure.retryable("the mail relay answered \(status)")
        }
    }
}
