import CoordinatorTesting
import Navigation

@testable import ShopApp

/// The shop under `CoordinatorTesting`: a session on an in-memory database, run as `shop serve` runs it.
extension AppTester {
    /// With `chargingCards`, as with `--payment-service` (a service that does not exist: a test
    /// fakes the payment effect).
    static func shop(chargingCards: Bool = false) async throws -> AppTester {
        try await AppTester(
            Shop.served, platform: .phone, settings: chargingCards ? ["--payment-service", "http://payments.invalid"] : [])
    }

    /// A shop with one product in the cart and the checkout sheet open.
    static func atCheckout(chargingCards: Bool = false) async throws -> AppTester {
        var shop = try await shop(chargingCards: chargingCards)
        try await shop.send(WelcomeScreen.self, .start)
        try await shop.send(CatalogueScreen.self, .openProduct(ProductReference(productId: 5)))
        try await shop.send(ProductScreen.self, .addToCart)
        try await shop.send(ProductScreen.self, .openCart)
        try await shop.send(CartScreen.self, .checkout)
        return shop
    }

    /// The presentation of each layer, bottom first.
    var layers: [String] { state["stack"]?.arrayValue?.compactMap { $0["presentation"]?.stringValue } ?? [] }
}
