import Foundation
import Navigation
import SQLiteStore
import Store

@testable import ShopApp

/// The shop on an in-memory SQLite database, driven event by event like a client: each event
/// in a transaction that rolls back if the flow throws.
struct ShopHarness {
    let connection: SQLiteConnection
    var tree: NavigationTree
    var now: Int64 = 1_800_000_000

    init() throws {
        connection = try SQLiteConnection(path: ":memory:")
        try Migrator(migrations: Shop.migrations(for: .sqlite)).migrate(connection)
        tree = try Shop.navigation.start(platform: .phone, environment: Shop.environment(connection: connection, now: now))
    }

    /// A shop with one product in the cart and the checkout sheet open.
    static func atCheckout() throws -> ShopHarness {
        var shop = try ShopHarness()
        for (event, payload) in [("start", JSONValue.null), ("openProduct", ["productId": 5]), ("addToCart", .null),
            ("openCart", .null), ("checkout", .null)]
        {
            try shop.send(event, payload)
        }
        return shop
    }

    /// Sends `event` from the top screen.
    mutating func send(_ event: String, _ payload: JSONValue = .null) throws {
        now += 1
        var working = tree
        let environment = Shop.environment(connection: connection, now: now)
        _ = try connection.transaction {
            try Shop.navigation.apply(
                IncomingEvent(screen: working.top!.id, name: event, payload: payload), to: &working, environment: environment)
        }
        tree = working
    }

    var top: Screen { tree.top! }
    var state: [String: JSONValue] { Shop.navigation.render(tree) }
    var layers: [String] { state["stack"]?.arrayValue?.compactMap { $0["presentation"]?.stringValue } ?? [] }

    /// The top screen's props, as `screen`'s typed props.
    func props<S: ScreenType>(_ screen: S.Type) throws -> S.Props {
        guard top.name == S.name else { throw NavigationError("the top screen is \(top.name), not \(S.name)") }
        return try JSONValue.decode(S.Props.self, from: .object(top.props))
    }

    func count(_ table: String) throws -> Int {
        try connection.queryFirst("SELECT count(*) FROM \(table)") { $0.int(0) } ?? 0
    }
}
