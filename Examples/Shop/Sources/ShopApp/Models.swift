import Navigation
import Store

/// Products and orders, on the connection the event commits on (so an order commits with the
/// session that placed it).
public struct ShopStore {
    let connection: any SQLConnection
    let now: Int64
    /// Orders are charged through the payment service (`ChargeOrder`); otherwise paid on delivery.
    let chargesCards: Bool

    public init(connection: any SQLConnection, now: Int64, chargesCards: Bool = false) {
        self.connection = connection
        self.now = now
        self.chargesCards = chargesCards
    }

    func products() throws -> [ProductView] {
        try connection.query("SELECT id, name, category, price_cents FROM products ORDER BY id", [], Self.product)
    }

    func product(id: Int) throws -> ProductView? {
        try connection.queryFirst(
            "SELECT id, name, category, price_cents FROM products WHERE id = ?1", [.int(id)], Self.product)
    }

    /// Up to four other products of `product`'s category.
    func related(to product: ProductView) throws -> [ProductView] {
        try connection.query(
            "SELECT id, name, category, price_cents FROM products WHERE category = ?1 AND id <> ?2 ORDER BY id LIMIT 4",
            [.text(product.category), .int(product.id)], Self.product)
    }

    /// Places an order for `lines` at today's prices; returns its id and total.
    func placeOrder(_ lines: [CartItem], to address: Address) throws -> (id: Int, totalCents: Int) {
        let priced = try lines.compactMap { line in try product(id: line.productId).map { ($0, line.quantity) } }
        let total = priced.reduce(0) { $0 + $1.0.priceCents * $1.1 }
        let order = try connection.queryFirst(
            """
            INSERT INTO orders (name, street, city, total_cents, created_at, payment)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id
            """,
            [
                .text(address.name), .text(address.street), .text(address.city), .int(total), .integer(now),
                .text(chargesCards ? "pending" : "on delivery"),
            ]
        ) { $0.int(0) } ?? 0
        for (product, quantity) in priced {
            try connection.run(
                "INSERT INTO order_lines (order_id, product_id, quantity, price_cents) VALUES (?1, ?2, ?3, ?4)",
                [.int(order), .int(product.id), .int(quantity), .int(product.priceCents)])
        }
        return (order, total)
    }

    private static func product(_ row: Row) -> ProductView {
        ProductView(id: row.int(0), name: row.string(1), category: row.string(2), priceCents: row.int(3))
    }
}

/// A product and how many of it the cart holds (the cart lives in the session, as a draft).
public struct CartItem: Codable, Sendable, Hashable {
    public var productId: Int
    public var quantity: Int
}

extension Context {
    var shop: ShopStore {
        get throws { try environment.require(ShopStore.self) }
    }
}
