import CoordinatorTesting
import Foundation
import Navigation
import Testing

@testable import ShopApp

/// The shop's journey over HTTP, on the real `shop` binary (built beside the tests) with a real
/// SQLite file, as a client would drive it.
@Suite struct ShopJourneyTests {
    @Test func browseAddToCartAndCheckOutOverHTTP() async throws {
        let server = try await LiveServer.start(product: "shop", arguments: ["--log-level", "warning"])
        #expect(server.log.contains("shop listening on http://127.0.0.1:\(server.port)\n"))

        var session = try await server.newSession()
        #expect(try await session.send(WelcomeScreen.self, .start).status == 200)
        #expect(session.topName == "catalogue")
        #expect(try await session.send(CatalogueScreen.self, .openProduct(ProductReference(productId: 10))).status == 200)
        #expect(try await session.send(ProductScreen.self, .openProduct(ProductReference(productId: 11))).status == 200)
        #expect(try await session.send(ProductScreen.self, .addToCart).status == 200)
        #expect(try await session.send(ProductScreen.self, .openCart).status == 200)
        #expect(try await session.send("remove", ["productId": "eleven"]).status == 422)
        #expect(try await session.send(CartScreen.self, .checkout).status == 200)
        #expect(session.topName == "checkout.address")
        let address = Address(name: "Ada", street: "1 Loop Rd", city: "Turin")
        #expect(try await session.send(AddressScreen.self, .next(address)).status == 200)
        #expect(session.topName == "checkout.confirm")
        #expect(try await session.send(ConfirmOrderScreen.self, .confirm).status == 200)
        #expect(session.topName == "checkout.placed")
        #expect(try await session.send(OrderPlacedScreen.self, .done).status == 200)
        #expect(session.topName == "catalogue")

        let catalogue = try await server.request("GET", "/v1/screens")
        let names = (catalogue.json?["screens"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        // The shop's own screens, and the sign-in kit's.
        #expect(names.sorted() == [
            "cart", "catalogue", "changePassword", "checkout.address", "checkout.confirm", "checkout.placed",
            "confirmDelete", "firstRun", "login", "product", "settings", "signUp.email", "signUp.form", "signUp.password",
            "signUp.profile", "welcome",
        ])
        #expect(try await server.request("GET", "/healthz").status == 200)
        #expect(try await server.stop() == 0)
    }
}
