import CoordinatorTesting
import Navigation
import SignInKit
import Testing

@testable import ShopApp

/// The shop's flows as plain values, on an in-memory database.
@Suite struct ShopFlowTests {
    /// `input(for:)` is a pure function of the screen's output: no tree, no store.
    @Test func inputTurnsOutputsIntoTheCataloguesInput() throws {
        #expect(
            try CatalogueCoordinator.input(for: ScreenEvent(from: CatalogueScreen.self, "openProduct", ["productId": 3]))
                == .openProduct(3))
        #expect(try CatalogueCoordinator.input(for: ScreenEvent(from: CartScreen.self, "checkout")) == .checkout)
        #expect(try CatalogueCoordinator.input(for: ScreenEvent(from: WelcomeScreen.self, "start")) == nil)
        #expect(throws: EventRejection.self) {
            try ScreenEvent(from: CatalogueScreen.self, "openProduct", ["productId": "three"])
        }
        let next = try ScreenEvent(
            from: AddressScreen.self, "next", ["name": "Ada", "street": "1 Loop Rd", "city": "Turin"], id: "s9", owner: 4)
        #expect(
            try CheckoutCoordinator.input(for: next) == .address(Address(name: "Ada", street: "1 Loop Rd", city: "Turin"), screen: "s9"))
    }

    @Test func welcomeThenTheCatalogue() async throws {
        var shop = try await AppTester.shop()
        #expect(shop.top.name == "welcome")
        try await shop.send("start")
        let catalogue = try shop.props(of: CatalogueScreen.self)
        #expect(catalogue.products.count == 12)
        #expect(catalogue.cartCount == 0)
        #expect(shop.tree.allScreens.map(\.name) == ["catalogue"])
    }

    /// Each product opens others of its category: the stack grows with every tap, and back
    /// unwinds it one page at a time.
    @Test func productsPushWithoutEnd() async throws {
        var shop = try await AppTester.shop()
        try await shop.send("start")
        try await shop.send("openProduct", ["productId": 3])
        for _ in 0..<6 {
            let product = try shop.props(of: ProductScreen.self)
            #expect(product.related.allSatisfy { $0.category == product.product.category && $0.id != product.product.id })
            try await shop.send("openProduct", ["productId": .int(product.related[0].id)])
        }
        #expect(shop.tree.allScreens.count == 8)
        try await shop.send("back")
        #expect(shop.tree.allScreens.count == 7)
    }

    @Test func cartCheckoutWithAddressAndConfirmPlacesTheOrder() async throws {
        var shop = try await AppTester.shop()
        try await shop.send(WelcomeScreen.self, .start)
        try await shop.send(CatalogueScreen.self, .openProduct(ProductReference(productId: 3)))
        try await shop.send(ProductScreen.self, .addToCart)
        try await shop.send(ProductScreen.self, .addToCart)
        #expect(try shop.props(of: ProductScreen.self).inCart == 2)
        try await shop.send(ProductScreen.self, .openProduct(ProductReference(productId: 1)))
        try await shop.send(ProductScreen.self, .addToCart)
        try await shop.send(ProductScreen.self, .openCart)
        let cart = try shop.props(of: CartScreen.self)
        #expect(cart.lines.map(\.quantity) == [2, 1])
        #expect(cart.totalCents == 2 * 8900 + 900)

        try await shop.send(CartScreen.self, .checkout)
        #expect(shop.layers == ["root", "modal"])
        try await shop.send(AddressScreen.self, .next(Address(name: "Ada", street: " ", city: "Turin")))
        #expect(try shop.props(of: AddressScreen.self).error == "Fill in every line.")
        try await shop.send(AddressScreen.self, .next(Address(name: "Ada", street: "1 Loop Rd", city: "Turin")))
        #expect(shop.layers == ["root", "modal", "alert"])
        try await shop.send(ConfirmOrderScreen.self, .cancel)  // the alert: keep editing
        #expect(shop.top.name == "checkout.address")
        try await shop.send(AddressScreen.self, .next(Address(name: "Ada", street: "1 Loop Rd", city: "Turin")))
        #expect(try shop.rows(in: "orders") == 0)
        try await shop.send(ConfirmOrderScreen.self, .confirm)
        let placed = try shop.props(of: OrderPlacedScreen.self)
        #expect(placed.totalCents == 18700)
        #expect(try shop.rows(in: "orders") == 1)
        #expect(try shop.rows(in: "order_lines") == 2)

        try await shop.send(OrderPlacedScreen.self, .done)
        #expect(shop.layers == ["root"])
        #expect(shop.tree.allScreens.map(\.name) == ["catalogue"])
        #expect(try shop.props(of: CatalogueScreen.self).cartCount == 0)
    }

    /// Dismissing the checkout sheet cancels it: no order, the cart kept.
    @Test func dismissingCheckoutKeepsTheCart() async throws {
        var shop = try await AppTester.atCheckout()
        try await shop.send("dismiss")
        #expect(shop.top.name == "cart")
        #expect(shop.tree.coordinatorCount == 2)  // shop and catalogue; checkout is gone
        #expect(try shop.props(of: CartScreen.self).lines.count == 1)
        #expect(try shop.rows(in: "orders") == 0)
    }

    /// Each line is limited in characters, bytes and accents: one "character" of 64 KB is no line.
    @Test func addressLinesAreLimited() async throws {
        var shop = try await AppTester.atCheckout()
        let zalgo = "Z" + String(repeating: "\u{301}", count: 32_000)
        for line in [zalgo, String(repeating: "x", count: 101), "Z\u{301}\u{301}\u{301}\u{301}\u{301}"] {
            try await shop.send("next", ["name": "Ada", "street": .string(line), "city": "Turin"])
            #expect(try shop.props(of: AddressScreen.self).error == CheckoutCoordinator.lineTooLong)
        }
        try await shop.send("next", ["name": "Ada", "street": .string(String(repeating: "x", count: 100)), "city": "Turin"])
        #expect(shop.layers == ["root", "modal", "alert"])
    }

    /// A name with an invisible character is refused before any flow sees it.
    @Test func addressNamesAreIdentifiers() async throws {
        var shop = try await AppTester.atCheckout()
        await #expect(throws: EventRejection.self) {
            try await shop.send("next", ["name": "A\u{200B}da", "street": "1 Loop Rd", "city": "Turin"])
        }
    }

    /// A shopper may sign in at checkout, on the sheet, with the sign-in kit's flow (here a
    /// registration): the address step comes back with the name filled in, and the order goes on.
    /// Backing out of sign-in leaves the address step as it was.
    @Test func signingInAtCheckoutFillsInTheName() async throws {
        var shop = try await AppTester.atCheckout()
        try await shop.send(AddressScreen.self, .signIn)
        #expect(shop.top.name == FirstRunScreen.name && shop.layers == ["root", "modal"])
        try await shop.send("back")
        #expect(shop.top.name == AddressScreen.name && shop.tree.user == nil)

        try await shop.send(AddressScreen.self, .signIn)
        try await shop.send(FirstRunScreen.self, .signUp)
        try await shop.send(SignUpEmailScreen.self, .next(EmailField(email: "ada@example.com")))
        try await shop.send(SignUpPasswordScreen.self, .next(PasswordField(password: "correct horse battery staple")))
        try await shop.send(SignUpProfileScreen.self, .finish(DisplayNameField(displayName: "Ada Lovelace")))
        #expect(shop.tree.user?.displayName == "Ada Lovelace")
        #expect(shop.top.name == AddressScreen.name && shop.layers == ["root", "modal"])
        #expect(try shop.props(of: AddressScreen.self).name == "Ada Lovelace")
        try await shop.send(AddressScreen.self, .next(Address(name: "Ada Lovelace", street: "1 Loop Road", city: "Turin")))
        try await shop.send(ConfirmOrderScreen.self, .confirm)
        #expect(shop.top.name == OrderPlacedScreen.name)
        #expect(try shop.rows(in: "users") == 1 && shop.rows(in: "orders") == 1)
    }
}
