import CoordinatorTesting
import Navigation
import Testing

@testable import ShopApp

/// The shop's links give the stacks their taps give, at creation and on a live session.
@Suite struct ShopLinkTests {
    @Test func aProductLinkGivesTheStackTheTapsGive() async throws {
        var tapped = try await AppTester.shop()
        try await tapped.send(WelcomeScreen.self, .start)
        try await tapped.send(CatalogueScreen.self, .openProduct(ProductReference(productId: 5)))
        let linked = try await AppTester(Shop.served, link: "/products/5")
        #expect(linked.shown == tapped.shown)
        #expect(linked.state["link"] == "/products/5")
    }

    @Test func theCartLinkClosesCheckoutAndKeepsTheCart() async throws {
        var linked = try await AppTester.atCheckout()
        var tapped = linked
        try await linked.open("/cart")
        // The cart over the catalogue, as from the catalogue: close checkout, back twice, the cart.
        try await tapped.send("dismiss")
        try await tapped.send("back")
        try await tapped.send("back")
        try await tapped.send(CatalogueScreen.self, .openCart)
        #expect(linked.shown == tapped.shown)
        #expect(linked.state["link"] == "/cart")
        #expect(try linked.props(of: CartScreen.self).lines.map(\.quantity) == [1])
        // Another product from the cart: the cart goes, the product comes, as back and a tap would.
        var product = linked
        try await product.open("/products/2")
        var back = linked
        try await back.send("back")
        try await back.send(CatalogueScreen.self, .openProduct(ProductReference(productId: 2)))
        #expect(product.shown == back.shown)
    }

    @Test func aBadLinkChangesNothing() async throws {
        var shop = try await AppTester.shop()
        let (shown, version) = (shop.shown, shop.version)
        await #expect(throws: LinkRejection.notFound("No product 999.")) { try await shop.open("/products/999") }
        await #expect(throws: LinkRejection.unknown(link: "/orders")) { try await shop.open("/orders") }
        #expect(shop.shown == shown && shop.version == version)
        await #expect(throws: LinkRejection.self) { _ = try await AppTester(Shop.served, link: "/products/x") }
    }
}
