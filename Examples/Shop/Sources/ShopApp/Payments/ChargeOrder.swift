import Navigation

/// Charges an order's total through the payment service, after the order committed: asked for
/// by checkout, run by `Payments` (at least once, with the effect's idempotency key, so the
/// service charges once), its result recorded on the order by the coordinator that gets it.
public struct ChargeOrder: Effect, Hashable {
    public typealias Result = PaymentReceipt
    public static let name = "chargeOrder"

    public var orderId: Int
    public var amountCents: Int
}

/// The payment service's receipt for a charge.
public struct PaymentReceipt: Codable, Sendable, Hashable {
    public var id: String

    public init(id: String) {
        self.id = id
    }
}

extension ShopStore {
    /// Records how `result` (a `ChargeOrder`'s) went on its order: `paid` with the receipt, or
    /// `failed` with why; nil when `result` is another effect's.
    func recordPayment(_ result: EffectResult) throws -> (orderId: Int, payment: String)? {
        guard let (charge, outcome) = try result.as(ChargeOrder.self) else { return nil }
        let (state, detail): (String, String)
        switch outcome {
        case .success(let receipt): (state, detail) = ("paid", receipt.id)
        case .failure(let failure): (state, detail) = ("failed", failure.reason)
        }
        try connection.run(
            "UPDATE orders SET payment = ?2, payment_detail = ?3 WHERE id = ?1 AND payment = 'pending'",
            [.int(charge.orderId), .text(state), .text(detail)])
        return (charge.orderId, state == "paid" ? "Paid" : "Payment failed: \(detail)")
    }
}
