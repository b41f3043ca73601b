import Navigation
import Sessions
import Store

/// A model bound to the connection an event commits on (`People(connection:)`), so that its
/// writes commit, or roll back, with the session. Coordinators reach it by its type,
/// `try context.dependency(People.self)`, with nothing to register: each event builds its own.
/// A value of the type set in the environment comes first (a test's fake, a shared cache).
public protocol EventModel {
    /// The model for one event, on the connection that event commits on.
    init(connection: any SQLConnection)
}

extension Context {
    /// The app's model of type `M` for this event: the environment's, if it holds one, or one
    /// built on the connection the event commits on. Throws only outside a session's run (a
    /// flow driven by hand with no connection).
    public func dependency<M: EventModel>(_ type: M.Type) throws -> M {
        if let given = environment[M.self] { return given }
        guard let event = environment[EventConnection.self] else {
            throw NavigationError("\(M.self) is built on an event's connection; this run has none (set one in the environment)")
        }
        return M(connection: event.connection)
    }

    /// The dependency of type `T` that the app's environment holds (one built at start, such
    /// as a client of another service); throws, naming the type, if the app set none.
    public func dependency<T>(_ type: T.Type) throws -> T {
        try environment.require(T.self)
    }
}
