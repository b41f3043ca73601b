import CoordinatorServer
import Foundation
import Navigation
import SignInKit
import Store

/// The shop: its screens and coordinators, its migrations, and how coordinatord serves it.
public enum Shop {
    public static let name = "shop"

    public static let navigation = NavigationApp(
        displayName: "Corner Shop",
        screens: [
            WelcomeScreen.self, CatalogueScreen.self, ProductScreen.self, CartScreen.self, AddressScreen.self,
            ConfirmOrderScreen.self, OrderPlacedScreen.self,
        ] + SignInKit.screens,
        coordinators: [ShopCoordinator.self, CatalogueCoordinator.self, CheckoutCoordinator.self]
            + SignInKit.coordinators(links: ShopRoute.self),
        userTable: SignInKit.userTable, links: Links(ShopRoute.self), root: { _ in ShopCoordinator() })

    /// `cents` as shoppers read a price: `€12.99`.
    static func price(cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let whole = abs(cents)
        return sign + "€\(whole / 100)." + (whole % 100 < 10 ? "0" : "") + "\(whole % 100)"
    }

    /// The shop's own tables, from its `Migrations` folder.
    public static func migrations(for dialect: SQLDialect) throws -> [Migration] {
        try Migration.load(files: EmbeddedFiles.files(in: "Migrations/" + dialect.rawValue), scope: name)
    }

    /// The environment of one event: the store on the event's connection. `chargesCards` when a
    /// payment service is configured: orders are then charged after checkout (`ChargeOrder`).
    public static func environment(connection: any SQLConnection, now: Int64, chargesCards: Bool = false) -> Environment {
        var environment = Environment()
        environment.set(ShopStore(connection: connection, now: now, chargesCards: chargesCards))
        return environment
    }

    /// The shop as coordinatord serves it: with `--payment-service`, orders are charged there;
    /// with the sign-in kit's accounts, which a shopper may use at checkout.
    public static let served = ServedApp(
        name: name, navigation: navigation, settings: ShopSettings.self, migrations: { try migrations(for: $0) },
        environment: { _, settings in
            let chargesCards = settings.paymentURL != nil
            return { connection, _, request in environment(connection: connection, now: request.now, chargesCards: chargesCards) }
        }
    )
    .signingIn()
    .handlingEffects { startup in
        let settings = try startup.settings(as: ShopSettings.self)
        return settings.paymentURL.map { Payments(service: $0).handlers } ?? EffectHandlers()
    }
    .versioned("1.1.0")
}
