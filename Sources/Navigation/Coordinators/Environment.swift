/// The dependencies a session's coordinators reach models through (Ljungberg's appContext,
/// radianttap's AppDependency), injected at the root for each event and never snapshotted.
public struct Environment {
    // Room for a run's usual dependencies from the start: growing 1 → 2 → 4 → 8 rehashed them
    // three times on every event.
    private var values: [ObjectIdentifier: Any] = Dictionary(minimumCapacity: 8)

    /// An empty environment.
    public init() {}

    /// Adds or replaces the dependency of type `T`.
    public mutating func set<T>(_ value: T) {
        values[ObjectIdentifier(T.self)] = value
    }

    /// The dependency of type `T`, if one was set.
    public subscript<T>(_ type: T.Type) -> T? {
        values[ObjectIdentifier(type)] as? T
    }

    /// The dependency of type `T`; throws if the host forgot to provide it.
    public func require<T>(_ type: T.Type) throws -> T {
        guard let value = self[type] else { throw NavigationError("no \(T.self) in the environment") }
        return value
    }
}
