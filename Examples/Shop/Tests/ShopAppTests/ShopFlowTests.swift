import Navigation
import Testing

@testable import ShopApp

/// The shop's flows as plain values, on an in-memory database.
@Suite struct ShopFlowTests {
    /// `mapIO` is a pure function of the screen's output: no tree, no store.
    @Test func mapIOTurnsOutputsIntoTheCataloguesInput() throws {
        #expect(
            try CatalogueCoordinator.mapIO(ScreenEvent(from: CatalogueScreen.self, "openProduct", ["productId": 3]))
                == .openProduct(3))
        #expect(try CatalogueCoordinator.mapIO(ScreenEvent(from: CartScreen.self, "checkout")) == .checkout)
        #expect(try CatalogueCoordinator.mapIO(ScreenEvent(from: WelcomeScreen.self, "start")) == nil)
        #expect(throws: EventRejection.self) {
            try ScreenEvent(from: CatalogueScreen.self, "openProduct", ["productId": "three"])
        }
        let next = try ScreenEvent(
            from: AddressScreen.self, "next", ["name": "Ada", "street": "1 Loop Rd", "city": "Turin"], id: "s9", owner: 4)
        #expect(
            try CheckoutCoordinator.mapIO(next) == .address(Address(name: "Ada", street: "1 Loop Rd", city: "Turin"), screen: "s9"))
    }

    @Test func welcomeThenTheCatalogue() throws {
        var shop = try ShopHarness()
        #expect(shop.top.name == "welcome")
        try shop.send("start")
        let catalogue = try shop.props(CatalogueScreen.self)
        #expect(catalogue.products.count == 12)
        #expect(catalogue.cartCount == 0)
        #expect(shop.tree.allScreens.map(\.name) == ["catalogue"])
    }

    /// Each product opens others of its category: the stack grows with every tap, and back
    /// unwinds it one page at a time.
    @Test func productsPushWithoutEnd() throws {
        var shop = try ShopHarness()
        try shop.send("start")
        try shop.send("openProduct", ["productId": 3])
        for _ in 0..<6 {
            let product = try shop.props(ProductScreen.self)
            #expect(product.related.allSatisfy { $0.category == product.product.category && $0.id != product.product.id })
            try shop.send("openProduct", ["productId": .int(product.related[0].id)])
        }
        #expect(shop.tree.allScreens.count == 8)
        try shop.send("back")
        #expect(shop.tree.allScreens.count == 7)
    }

    @Test func cartCheckoutWithAddressAndConfirmPlacesTheOrder() throws {
        var shop = try ShopHarness()
        try shop.send("start")
        try shop.send("openProduct", ["productId": 3])
        try shop.send("addToCart")
        try shop.send("addToCart")
        #expect(try shop.props(ProductScreen.self).inCart == 2)
        try shop.send("openProduct", ["productId": 1])
        try shop.send("addToCart")
        try shop.send("openCart")
        let cart = try shop.props(CartScreen.self)
        #expect(cart.lines.map(\.quantity) == [2, 1])
        #expect(cart.totalCents == 2 * 8900 + 900)

        try shop.send("checkout")
        #expect(shop.layers == ["root", "modal"])
        try shop.send("next", ["name": "Ada", "street": " ", "city": "Turin"])
        #expect(try shop.props(AddressScreen.self).error == "Fill in every line.")
        try shop.send("next", ["name": "Ada", "street": "1 Loop Rd", "city": "Turin"])
        #expect(shop.layers == ["root", "modal", "alert"])
        try shop.send("cancel")  // the alert: keep editing
        #expect(shop.top.name == "checkout.address")
        try shop.send("next", ["name": "Ada", "street": "1 Loop Rd", "city": "Turin"])
        #expect(try shop.count("orders") == 0)
        try shop.send("confirm")
        let placed = try shop.props(OrderPlacedScreen.self)
        #expect(placed.totalCents == 18700)
        #expect(try shop.count("orders") == 1)
        #expect(try shop.count("order_lines") == 2)

        try shop.send("done")
        #expect(shop.layers == ["root"])
        #expect(shop.tree.allScreens.map(\.name) == ["catalogue"])
        #expect(try shop.props(CatalogueScreen.self).cartCount == 0)
    }

    /// Dismissing the checkout sheet cancels it: no order, the cart kept.
    @Test func dismissingCheckoutKeepsTheCart() throws {
        var shop = try ShopHarness.atCheckout()
        try shop.send("dismiss")
        #expect(shop.top.name == "cart")
        #expect(shop.tree.coordinatorCount == 2)  // shop and catalogue; checkout is gone
        #expect(try shop.props(CartScreen.self).lines.count == 1)
        #expect(try shop.count("orders") == 0)
    }

    /// Each line is limited in characters, bytes and accents: one "character" of 64 KB is no line.
    @Test func addressLinesAreLimited() throws {
        var shop = try ShopHarness.atCheckout()
        let zalgo = "Z" + String(repeating: "\u{301}", count: 32_000)
        for line in [zalgo, String(repeating: "x", count: 101), "Z\u{301}\u{301}\u{301}\u{301}\u{301}"] {
            try shop.send("next", ["name": "Ada", "street": .string(line), "city": "Turin"])
            #expect(try shop.props(AddressScreen.self).error == CheckoutCoordinator.lineTooLong)
        }
        try shop.send("next", ["name": "Ada", "street": .string(String(repeating: "x", count: 100)), "city": "Turin"])
        #expect(shop.layers == ["root", "modal", "alert"])
    }

    /// A name with an invisible character is refused before any flow sees it.
    @Test func addressNamesAreIdentifiers() throws {
        var shop = try ShopHarness.atCheckout()
        #expect(throws: EventRejection.self) {
            try shop.send("next", ["name": "A\u{200B}da", "street": "1 Loop Rd", "city": "Turin"])
        }
    }
}
