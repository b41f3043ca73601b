import Navigation

/// A product as screens show it.
public struct ProductView: Codable, Sendable, Hashable {
    public var id: Int
    public var name: String
    public var category: String
    public var priceCents: Int
    /// The price as shoppers read it (`€12.99`).
    public var price: String

    public init(id: Int, name: String, category: String, priceCents: Int) {
        self.id = id
        self.name = name
        self.category = category
        self.priceCents = priceCents
        self.price = Shop.price(cents: priceCents)
    }
}

/// Names a product.
public struct ProductReference: Codable, Sendable, Hashable {
    public var productId: Int
    public init(productId: Int) { self.productId = productId }
}

/// One line of the cart.
public struct CartLine: Codable, Sendable, Hashable {
    /// The product's id, which `remove` takes.
    public var productId: Int
    public var product: ProductView
    public var quantity: Int

    public init(product: ProductView, quantity: Int) {
        self.productId = product.id
        self.product = product
        self.quantity = quantity
    }
}

/// Where an order goes.
public struct Address: Codable, Sendable, Hashable {
    @Identifier public var name: String
    public var street: String
    public var city: String
    public init(name: String, street: String, city: String) {
        self.name = name
        self.street = street
        self.city = city
    }
}

/// Onboarding: what the shop is, and a way in.
public enum WelcomeScreen: ScreenType {
    public static let name = "welcome"
    public static let summary = "What the shop sells; start shopping."
    public static let presentation = ScreenPresentation(title: "Welcome", events: ["start": .primary("Start shopping")])
    public enum Output: ScreenOutput {
        case start
        public static let events: [OutputEvent<Output>] = [.event("start", .start)]
    }
}

/// Every product, and how many items the cart holds.
public enum CatalogueScreen: ScreenType {
    public static let name = "catalogue"
    public static let summary = "Every product."
    public static let presentation = ScreenPresentation(
        title: "Catalogue",
        fields: ["products": .label("Products"), "cartCount": .label("Items in your cart"), "priceCents": .hidden],
        events: ["openProduct": .secondary("Open"), "openCart": .primary("View cart")],
        itemActions: [ItemAction("products", opens: "openProduct", with: "productId", title: "name", subtitle: "price")])
    public struct Props: Codable, Sendable, Hashable {
        public var products: [ProductView]
        public var cartCount: Int
    }
    public enum Output: ScreenOutput {
        case openProduct(ProductReference), openCart
        public static let events: [OutputEvent<Output>] = [
            .event("openProduct", Output.openProduct), .event("openCart", .openCart),
        ]
    }
}

/// One product and others of its category, each opening its own page: pushing without end.
public enum ProductScreen: ScreenType {
    public static let name = "product"
    public static let summary = "A product, and related ones."
    public static let presentation = ScreenPresentation(
        title: "Product",
        fields: [
            "product": .unlabeled("Product"), "name": .init(display: .heading), "priceCents": .hidden,
            "related": .label("More in this category"), "inCart": .label("In your cart"),
        ],
        events: ["addToCart": .primary("Add to cart"), "openProduct": .secondary("Open"), "openCart": .secondary("View cart")],
        itemActions: [ItemAction("related", opens: "openProduct", with: "productId", title: "name", subtitle: "price")])
    public struct Props: Codable, Sendable, Hashable {
        public var product: ProductView
        public var related: [ProductView]
        public var inCart: Int
    }
    public enum Output: ScreenOutput {
        case addToCart, openProduct(ProductReference), openCart
        public static let events: [OutputEvent<Output>] = [
            .event("addToCart", .addToCart), .event("openProduct", Output.openProduct), .event("openCart", .openCart),
        ]
    }
}

/// The cart: its lines and total.
public enum CartScreen: ScreenType {
    public static let name = "cart"
    public static let summary = "The cart and its total."
    public static let presentation = ScreenPresentation(
        title: "Cart",
        fields: [
            "lines": .label("Items"), "product": .unlabeled("Product"), "priceCents": .hidden, "totalCents": .hidden,
            "productId": .hidden,
        ],
        events: ["checkout": .primary("Check out"), "remove": .destructive("Remove")],
        itemActions: [ItemAction("lines", opens: "remove", with: "productId", from: "productId")])
    public struct Props: Codable, Sendable, Hashable {
        public var lines: [CartLine]
        public var totalCents: Int
        /// The total as shoppers read it.
        public var total: String

        public init(lines: [CartLine], totalCents: Int) {
            self.lines = lines
            self.totalCents = totalCents
            self.total = Shop.price(cents: totalCents)
        }
    }
    public enum Output: ScreenOutput {
        case checkout, remove(ProductReference)
        public static let events: [OutputEvent<Output>] = [.event("checkout", .checkout), .event("remove", Output.remove)]
    }
}

/// Checkout step 1, presented modally: where to send the order.
public enum AddressScreen: ScreenType {
    public static let name = "checkout.address"
    public static let summary = "Checkout: the delivery address."
    public static let presentation = ScreenPresentation(
        title: "Delivery address",
        fields: [
            "name": .init(label: "Full name", autofill: .name), "street": .init(label: "Street", autofill: .streetAddress),
            "city": .init(label: "City", autofill: .city),
        ],
        events: ["next": .primary("Continue"), "signIn": .secondary("Sign in to fill in your name"), "cancel": .cancel("Cancel")])
    public struct Props: Codable, Sendable, Hashable {
        public var name: String
        public var street: String
        public var city: String
        public var error: String?
    }
    public enum Output: ScreenOutput {
        case next(Address), signIn, cancel
        public static let events: [OutputEvent<Output>] = [
            .event("next", Output.next), .event("signIn", .signIn), .event("cancel", .cancel),
        ]
    }
}

/// Checkout step 2, an alert: place the order?
public enum ConfirmOrderScreen: ScreenType {
    public static let name = "checkout.confirm"
    public static let summary = "Alert: place the order."
    public static let presentation = ScreenPresentation(
        title: "Place the order?", fields: ["message": .unlabeled("Message")],
        events: ["confirm": .primary("Place order"), "cancel": .cancel("Not yet")])
    public struct Props: Codable, Sendable, Hashable {
        public var message: String
    }
    public enum Output: ScreenOutput {
        case confirm, cancel
        public static let events: [OutputEvent<Output>] = [.event("confirm", .confirm), .event("cancel", .cancel)]
    }
}

/// The order is placed.
public enum OrderPlacedScreen: ScreenType {
    public static let name = "checkout.placed"
    public static let summary = "The order is placed."
    public static let presentation = ScreenPresentation(
        title: "Thank you",
        fields: [
            "orderId": .label("Order number"), "total": .label("Total"), "totalCents": .hidden, "payment": .label("Payment"),
        ],
        events: ["done": .primary("Continue shopping")])
    public struct Props: Codable, Sendable, Hashable {
        public var orderId: Int
        public var totalCents: Int
        /// The total as shoppers read it.
        public var total: String
        /// How it is paid: `Paying…` until the payment service answered, then `Paid` or why not;
        /// `On delivery` when the shop charges no card.
        public var payment: String

        public init(orderId: Int, totalCents: Int, payment: String) {
            self.orderId = orderId
            self.totalCents = totalCents
            self.total = Shop.price(cents: totalCents)
            self.payment = payment
        }
    }
    public enum Output: ScreenOutput {
        case done
        public static let events: [OutputEvent<Output>] = [.event("done", .done)]
    }
}

extension ChildKey {
    static let catalogue = ChildKey("catalogue")
    static let checkout = ChildKey("checkout")
}
