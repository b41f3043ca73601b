import CoordinatorTesting
import Navigation

@testable import ShopApp

/// The shop under `CoordinatorTesting`: a session on an in-memory database, run as `shop serve` runs it.
extension AppTester {
    static func shop() async throws -> AppTester {
        try await AppTester(Shop.served, platform: .phone)
    }

    /// A shop with one product in the cart and the checkout sheet open.
    static func atCheckout() async throws -> AppTester {
        var shop = try await shop()
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
