import ArgumentParser
import CoordinatorServer
import Foundation
import Navigation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs `ChargeOrder` against the payment service at `service` (`--payment-service`):
/// `POST /charges` with `{"orderId", "amountCents"}` and the effect's `Idempotency-Key`; the
/// service answers `2xx` with `{"id": receipt}`, `402` when the card is declined.
public struct Payments: Sendable {
    let service: URL

    public init(service: URL) {
        self.service = service
    }

    /// The shop's effect handlers.
    public var handlers: EffectHandlers {
        EffectHandlers().handling(ChargeOrder.self) { charge, attempt in try await self.charge(charge, attempt) }
    }

    func charge(_ charge: ChargeOrder, _ attempt: EffectAttempt) async throws -> PaymentReceipt {
        var request = URLRequest(url: service.appendingPathComponent("charges"), timeoutInterval: 15)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(attempt.idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        request.httpBody = Data(
            JSONValue.object(["orderId": .int(charge.orderId), "amountCents": .int(charge.amountCents)]).serialized())
        let (body, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        switch status {
        case 200..<300:
            guard let id = (try? JSONValue.parse(Array(body)))?["id"]?.stringValue else {
                throw EffectFailure.retryable("the payment service's answer had no receipt id")
            }
            return PaymentReceipt(id: id)
        case 402: throw EffectFailure.permanent("the card was declined")
        // The service refused the charge itself: trying again cannot help.
        case 400..<500 where status != 408 && status != 429:
            throw EffectFailure.permanent("the payment service refused the charge (\(status))")
        default: throw EffectFailure.retryable("the payment service answered \(status)")
        }
    }
}

/// The shop's own settings: `serve` takes each as a flag or a `COORDINATORD_*` variable.
public struct ShopSettings: ParsableArguments, Sendable {
    @Option(help: "The payment service's base URL (orders are charged through its /charges); unset: paid on delivery.")
    public var paymentService: String?

    public init() {}

    public func validate() throws {
        if let paymentService, paymentURL == nil {
            throw ValidationError("--payment-service takes an http or https URL, not \"\(paymentService)\".")
        }
    }

    /// `paymentService` as a URL, when it is an http(s) one.
    var paymentURL: URL? { URL(serviceSetting: paymentService) }
}
