import Navigation
import Store

/// The app: a counter, a detail screen pushed over it, and a code redeemed with a secret field.
enum Counter {
    /// The `v1-detour` build: today's coordinator, but `detail` no longer shows the detail.
    /// `nonisolated(unsafe)`: set once, in `navigation(_:)` before anything is served, then only read.
    nonisolated(unsafe) static var detour = false
    /// The `v1-tallies-twice` build: each increment writes its tally twice. Set as `detour` is.
    nonisolated(unsafe) static var talliesTwice = false

    static func navigation(_ variant: String) -> NavigationApp {
        detour = variant == "v1-detour"
        talliesTwice = variant == "v1-tallies-twice"
        let screens: [any ScreenType.Type] = [CounterScreen.self, DetailScreen.self]
        switch variant {
        case "v2": return NavigationApp(screens: screens, coordinators: [CounterV2.self], root: { _ in CounterV2() })
        case "v2-unversioned":
            return NavigationApp(screens: screens, coordinators: [CounterV2Unversioned.self], root: { _ in CounterV2Unversioned() })
        case "v2-migrating":
            return NavigationApp(screens: screens, coordinators: [CounterV2Migrating.self], root: { _ in CounterV2Migrating() })
        default: return NavigationApp(screens: screens, coordinators: [CounterV1.self], root: { _ in CounterV1() })
        }
    }
}

enum CounterScreen: ScreenType {
    static let name = "counter"
    static let summary = "A count."
    struct Props: Codable, Sendable { var count: Int }
    /// A code to redeem: the app marks it secret, so no journal keeps it.
    struct Redeem: Codable, Sendable, Hashable {
        @Secret var code: String
    }
    enum Output: ScreenOutput {
        case increment, detail
        case redeem(Redeem)
        static let events: [OutputEvent<Output>] = [
            .event("increment", .increment), .event("detail", .detail), .event("redeem", Output.redeem),
        ]
    }
}

enum DetailScreen: ScreenType {
    static let name = "detail"
    static let summary = "The count, in detail."
    struct Props: Codable, Sendable { var count: Int }
    enum Output: ScreenOutput {
        static let events: [OutputEvent<Output>] = []
    }
}

/// The flow every build shares: count, push the detail, redeem a code for ten.
protocol Counting: Coordinator {
    var count: Int { get set }
}

extension Counting {
    mutating func start(_ context: inout Context) throws {
        try context.setRoot(CounterScreen.self, .init(count: count))
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard let output = try event.output(CounterScreen.self) else { return .unhandled }
        switch output {
        case .increment:
            count += 1
            let tallies = try context.environment.require(Tallies.self)
            for _ in 0..<(Counter.talliesTwice ? 2 : 1) { try tallies.write() }
        case .redeem: count += 10
        case .detail:
            if Counter.detour { return .handled }
            try context.push(DetailScreen.self, .init(count: count))
            return .handled
        }
        let count = self.count
        try context.update(event.screen.id, as: CounterScreen.self) { $0.count = count }
        return .handled
    }
}

/// A row per increment: the app's model writes.
struct Tallies {
    let connection: any SQLConnection
    let now: Int64

    func write() throws {
        _ = try connection.run("INSERT INTO tallies (at) VALUES (?1)", [.integer(now)])
    }
}

/// Today's build.
struct CounterV1: Counting {
    static let typeName = "counter"
    var count = 0
}

/// A build whose coordinator gained a field, and declares no migration: v1 sessions fall back.
struct CounterV2: Counting {
    static let typeName = "counter"
    static let schemaVersion = 2
    var count = 0
    var label = "new"
}

/// A build whose coordinator gained a field without raising its schema version (the mistake
/// the deploy check is there to catch): v1 snapshots lack the field.
struct CounterV2Unversioned: Counting {
    static let typeName = "counter"
    var count = 0
    var label: String

    init() { label = "new" }
}

/// The same build with a migration from the v1 form: v1 sessions are upgraded.
struct CounterV2Migrating: Counting {
    static let typeName = "counter"
    static let schemaVersion = 2
    var count = 0
    var label = "new"

    static func migrate(_ state: JSONValue, fromSchema version: Int) throws -> JSONValue? {
        guard version == 1, case .object(var members) = state else { return nil }
        members["label"] = .string("migrated")
        return .object(members)
    }
}
