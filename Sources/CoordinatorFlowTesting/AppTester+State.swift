import Navigation
import Store

extension AppTester {
    /// The screen on top: the one that accepts events now.
    public var top: Screen {
        guard let top = tree.top else { preconditionFailure("the session shows no screen") }
        return top
    }

    /// The session's State as a client receives it (`id`, `version`, `user`, `stack`, `top`), for
    /// whole-state assertions.
    public var state: JSONValue {
        var state = navigation.render(tree)
        state["id"] = .string(sessionID)
        state["version"] = .int(version)
        return .object(state)
    }

    /// The events the top screen accepts now, system events included.
    public var accepted: [String] { navigation.acceptedEvents(in: tree) }

    /// The props of the top screen, which must be a `screen`, as its typed props.
    public func props<S: ScreenType>(of screen: S.Type) throws -> S.Props {
        try expectTop(S.self)
        return try JSONValue.decode(S.Props.self, from: .object(top.props))
    }

    /// Throws unless the top screen is a `screen`.
    func expectTop<S: ScreenType>(_ screen: S.Type) throws {
        guard top.name == S.name else { throw NavigationError("the top screen is \(top.name), not \(S.name)") }
    }

    /// The number of rows in `table` of the database.
    public func rows(in table: String) throws -> Int {
        // A table's name cannot be a bound parameter: it is checked to be a plain name instead.
        guard !table.isEmpty, table.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw NavigationError("\"\(table)\" is not a table's name")
        }
        return try database.queryFirst("SELECT count(*) FROM \(table)", []) { $0.int(0) } ?? 0
    }
}
