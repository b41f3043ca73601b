import Navigation
import SignInKit

/// The shop's links: a product, and the cart. Nobody has to sign in to a shop (a shopper may,
/// at checkout); no link opens registration.
public enum ShopRoute: SignInRoute {
    case product(Int)
    case cart

    public static let patterns: [LinkPattern<ShopRoute>] = [
        LinkPattern("/products/{id}", summary: "A product.", shows: ProductScreen.self, canonical: { .product($0.product.id) }) {
            .product(try $0.int("id"))
        },
        LinkPattern("/cart", summary: "The cart.", shows: CartScreen.self, canonical: { _ in .cart }) { _ in .cart },
    ]

    public var link: String {
        switch self {
        case .product(let id): "/products/\(id)"
        case .cart: "/cart"
        }
    }

    public var needsSignIn: Bool { false }
    public var opensRegistration: Bool { false }
}
