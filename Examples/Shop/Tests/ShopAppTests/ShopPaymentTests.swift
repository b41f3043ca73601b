import CoordinatorTesting
import Foundation
import Navigation
import Testing

@testable import ShopApp

/// Checkout with a payment service: the order commits first, the card is charged after that
/// commit (`ChargeOrder`, an effect), and the answer is recorded on the order.
@Suite struct ShopPaymentTests {
    static func placeOrder(_ shop: inout AppTester) async throws {
        try await shop.send(AddressScreen.self, .next(Address(name: "Ada", street: "1 Loop Rd", city: "Turin")))
        try await shop.send(ConfirmOrderScreen.self, .confirm)
    }

    static func payment(_ shop: AppTester) throws -> (state: String, detail: String?)? {
        try shop.database.queryFirst("SELECT payment, payment_detail FROM orders", []) {
            (state: $0.string(0), detail: $0.optionalString(1))
        }
    }

    @Test func theCardIsChargedAfterTheOrderCommitsAndTheScreenSaysSo() async throws {
        var shop = try await AppTester.atCheckout(chargingCards: true)
        try await Self.placeOrder(&shop)
        let placed = try shop.props(of: OrderPlacedScreen.self)
        #expect(placed.payment == "Paying…")
        #expect(try Self.payment(shop)?.state == "pending", "the order stands before the service answered")
        let charge = try #require(try shop.pendingEffects.first?.request(as: ChargeOrder.self))
        #expect(charge == ChargeOrder(orderId: placed.orderId, amountCents: placed.totalCents))

        shop.fakeEffect(ChargeOrder.self) { _, attempt in PaymentReceipt(id: "receipt-for-\(attempt.idempotencyKey)") }
        try await shop.runEffects()
        #expect(try shop.props(of: OrderPlacedScreen.self).payment == "Paid")
        #expect(try Self.payment(shop)?.state == "paid")
        #expect(try Self.payment(shop)?.detail == "receipt-for-effect-1")
    }

    @Test func aDeclinedCardIsShownAndRecorded() async throws {
        var shop = try await AppTester.atCheckout(chargingCards: true)
        try await Self.placeOrder(&shop)
        shop.fakeEffect(ChargeOrder.self) { _, _ in throw EffectFailure.permanent("the card was declined") }
        try await shop.runEffects()
        #expect(try shop.props(of: OrderPlacedScreen.self).payment == "Payment failed: the card was declined")
        #expect(try Self.payment(shop)?.state == "failed")
    }

    /// The shopper left the checkout before the service answered: the shop coordinator, still
    /// running, records the payment.
    @Test func aPaymentThatAnswersAfterTheCheckoutFinishedIsStillRecorded() async throws {
        var shop = try await AppTester.atCheckout(chargingCards: true)
        try await Self.placeOrder(&shop)
        try await shop.send(OrderPlacedScreen.self, .done)
        #expect(shop.tree.coordinators(of: CheckoutCoordinator.self).isEmpty)
        shop.fakeEffect(ChargeOrder.self) { _, _ in PaymentReceipt(id: "r-1") }
        try await shop.runEffects()
        #expect(try Self.payment(shop)?.state == "paid")
        #expect(shop.top.name == "catalogue", "the result changes no screen here")
    }

    @Test func withoutAPaymentServiceTheOrderIsPaidOnDelivery() async throws {
        var shop = try await AppTester.atCheckout()
        try await Self.placeOrder(&shop)
        #expect(try shop.props(of: OrderPlacedScreen.self).payment == "On delivery")
        #expect(shop.pendingEffects.isEmpty)
        #expect(try Self.payment(shop)?.state == "on delivery")
    }

    /// Over HTTP, on the real `shop` binary, against a payment service the test runs on
    /// localhost: the real handler calls it once, with the effect's idempotency key.
    @Test func theRealBinaryChargesThroughTheService() async throws {
        let payments = try ServiceStandIn { request in
            request.path == "/charges" ? .json(201, ["id": "ch_42"]) : .json(404, [:])
        }
        let server = try await LiveServer.start(
            product: "shop", arguments: ["--log-level", "warning", "--payment-service", payments.url])
        var session = try await server.newSession()
        #expect(try await session.send(WelcomeScreen.self, .start).status == 200)
        #expect(try await session.send(CatalogueScreen.self, .openProduct(ProductReference(productId: 5))).status == 200)
        #expect(try await session.send(ProductScreen.self, .addToCart).status == 200)
        #expect(try await session.send(ProductScreen.self, .openCart).status == 200)
        #expect(try await session.send(CartScreen.self, .checkout).status == 200)
        #expect(try await session.send(AddressScreen.self, .next(Address(name: "Ada", street: "1 Loop Rd", city: "Turin"))).status == 200)
        #expect(try await session.send(ConfirmOrderScreen.self, .confirm).status == 200)
        let placed = try session.props(of: OrderPlacedScreen.self)

        try await session.refresh(until: { try $0.props(of: OrderPlacedScreen.self).payment == "Paid" })
        let calls = payments.requests
        #expect(calls.count == 1)
        #expect(calls.first?.idempotencyKey?.isEmpty == false)
        #expect(calls.first?.json?["orderId"]?.intValue == placed.orderId)
        #expect(calls.first?.json?["amountCents"]?.intValue == placed.totalCents)
        #expect(try await server.stop() == 0)
        await payments.stop()
    }
}
