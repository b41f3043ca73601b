import Navigation

/// The root: the welcome screen, then the catalogue flow for good.
struct ShopCoordinator: Coordinator {
    static let typeName = "Shop"

    enum Input: Equatable { case start }

    static func input(for event: ScreenEvent) throws -> Input? {
        try event.output(WelcomeScreen.self).map { _ in .start }
    }

    mutating func start(_ context: inout Context) throws {
        context.setRoot(WelcomeScreen.self)
    }

    /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard let input = try Self.input(for: event) else { return .unhandled }
        try handle(input, &context)
        return .handled
    }

    mutating func handle(_ input: Input, _ context: inout Context) throws {
        try context.startChild(.catalogue, CatalogueCoordinator())
    }

    /// A payment whose checkout finished before the service answered: the order records it.
    mutating func effectFinished(_ result: EffectResult, _ context: inout Context) throws -> Handling {
        try context.shop.recordPayment(result) == nil ? .unhandled : .handled
    }

    /// A link skips the welcome screen, as tapping Start would, and goes to the catalogue flow.
    mutating func open(_ link: Link, _ context: inout Context) throws -> Handling {
        guard link.route(as: ShopRoute.self) != nil else { return .unhandled }
        if !context.hasChild(.catalogue) { try context.startChild(.catalogue, CatalogueCoordinator()) }
        return try context.open(link, inChild: .catalogue)
    }
}
