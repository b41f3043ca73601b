import Navigation

/// The shop's links: a product, and the cart. Nobody signs in to a shop.
public enum ShopRoute: Route {
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
}
