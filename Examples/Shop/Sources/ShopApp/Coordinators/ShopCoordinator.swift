import Navigation

/// The root: the welcome screen, then the catalogue flow for good.
struct ShopCoordinator: InputMapping {
    static let typeName = "Shop"

    enum Input: Equatable { case start }

    static func mapIO(_ event: ScreenEvent) throws -> Input? {
        try event.output(WelcomeScreen.self).map { _ in .start }
    }

    mutating func start(_ context: inout Context) throws {
        context.setRoot(WelcomeScreen.self)
    }

    mutating func handle(_ input: Input, _ context: inout Context) throws {
        try context.startChild(.catalogue, CatalogueCoordinator())
    }
}
