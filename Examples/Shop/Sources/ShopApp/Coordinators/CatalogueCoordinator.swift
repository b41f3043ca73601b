import Navigation

/// The catalogue, products pushed without end, the cart, and the checkout child presented
/// modally. The cart is this coordinator's draft: it lives in the session until the order.
struct CatalogueCoordinator: Coordinator {
    static let typeName = "Catalogue"
    var cart: [CartItem] = []
    var catalogue: ScreenID?

    enum Input: Equatable {
        case openProduct(Int)
        case addToCart(productID: Int, screen: ScreenID)
        case openCart
        case remove(Int, screen: ScreenID)
        case checkout
    }

    /// Pure: a screen's output to this coordinator's input, with no I/O.
    static func input(for event: ScreenEvent) throws -> Input? {
        switch try event.output(CatalogueScreen.self) {
        case .openProduct(let product): return .openProduct(product.productId)
        case .openCart: return .openCart
        case nil: break
        }
        if let output = try event.output(ProductScreen.self) {
            switch output {
            case .openProduct(let product): return .openProduct(product.productId)
            case .openCart: return .openCart
            case .addToCart:
                // The product is the one the screen shows; its id is the screen's own prop.
                return .addToCart(productID: event.screen.props["product"]?["id"]?.intValue ?? 0, screen: event.screen.id)
            }
        }
        switch try event.output(CartScreen.self) {
        case .checkout: return .checkout
        case .remove(let product): return .remove(product.productId, screen: event.screen.id)
        case nil: return nil
        }
    }

    mutating func start(_ context: inout Context) throws {
        catalogue = try context.setRoot(CatalogueScreen.self, .init(products: context.shop.products(), cartCount: 0))
    }

    /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard let input = try Self.input(for: event) else { return .unhandled }
        try handle(input, &context)
        return .handled
    }

    mutating func handle(_ input: Input, _ context: inout Context) throws {
        switch input {
        case .openProduct(let id):
            guard let product = try context.shop.product(id: id) else { return }
            try context.push(
                ProductScreen.self,
                .init(product: product, related: try context.shop.related(to: product), inCart: quantity(of: id)))
        case .addToCart(let id, let screen):
            guard try context.shop.product(id: id) != nil else { return }
            if let index = cart.firstIndex(where: { $0.productId == id }) {
                cart[index].quantity += 1
            } else {
                cart.append(CartItem(productId: id, quantity: 1))
            }
            let count = quantity(of: id)
            try context.update(screen, as: ProductScreen.self) { $0.inCart = count }
            try refreshCatalogue(&context)
        case .openCart:
            try context.push(CartScreen.self, try cartProps(&context))
        case .remove(let id, let screen):
            cart.removeAll { $0.productId == id }
            let props = try cartProps(&context)
            try context.update(screen, as: CartScreen.self) { $0 = props }
            try refreshCatalogue(&context)
        case .checkout:
            guard !cart.isEmpty, !context.hasChild(.checkout) else { return }
            try context.startChild(.checkout, CheckoutCoordinator(lines: cart), placement: .modal)
        }
    }

    /// A product or the cart over the catalogue, checkout closed, as the taps that reach them
    /// show them; nothing changes when they are already so.
    mutating func open(_ link: Link, _ context: inout Context) throws -> Handling {
        guard let route = link.route(as: ShopRoute.self) else { return .unhandled }
        try context.dismissLayers()
        let shown = context.ownScreens
        switch route {
        case .product(let id):
            guard let product = try context.shop.product(id: id) else { throw LinkRejection.notFound("No product \(id).") }
            if shown.count == 2, context.props(of: shown[1].id, as: ProductScreen.self)?.product.id == id { break }
            try context.popToRoot()
            try context.push(
                ProductScreen.self,
                .init(product: product, related: try context.shop.related(to: product), inCart: quantity(of: id)))
        case .cart:
            if shown.count == 2, shown[1].name == CartScreen.name { break }
            try context.popToRoot()
            try context.push(CartScreen.self, try cartProps(&context))
        }
        return .handled
    }

    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        guard output.as(CheckoutCoordinator.self) == .placed else { return }
        cart = []
        try context.popToRoot()
        try refreshCatalogue(&context)
    }

    private func quantity(of id: Int) -> Int {
        cart.first { $0.productId == id }?.quantity ?? 0
    }

    private func cartProps(_ context: inout Context) throws -> CartScreen.Props {
        let lines = try cart.compactMap { item in
            try context.shop.product(id: item.productId).map { CartLine(product: $0, quantity: item.quantity) }
        }
        return .init(lines: lines, totalCents: lines.reduce(0) { $0 + $1.product.priceCents * $1.quantity })
    }

    private func refreshCatalogue(_ context: inout Context) throws {
        guard let catalogue else { return }
        let count = cart.reduce(0) { $0 + $1.quantity }
        try context.update(catalogue, as: CatalogueScreen.self) { $0.cartCount = count }
    }
}
