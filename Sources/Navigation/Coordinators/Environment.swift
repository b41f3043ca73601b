/// The dependencies a session's coordinators reach models through (Ljungberg's appContext,
/// radianttap's AppDependency), injected at the root for each event and never snapshotted.
public struct Environment {
    // A handful of entries, found by a scan of their types: a dictionary cost an allocation, a
    // rehash per growth and a hash per lookup on every event, for fewer than ten dependencies.
    // The types are kept apart from the values so that the scan copies no existential.
    private var types: [ObjectIdentifier] = []
    private var values: [Any] = []

    /// An empty environment.
    public init() {}

    /// Adds or replaces the dependency of type `T`.
    public mutating func set<T>(_ value: T) {
        if let index = types.firstIndex(of: ObjectIdentifier(T.self)) {
            values[index] = value
        } else {
            if types.isEmpty {
                types.reserveCapacity(8)
                values.reserveCapacity(8)
            }
            types.append(ObjectIdentifier(T.self))
            values.append(value)
        }
    }

    /// The dependency of type `T`, if one was set.
    public subscript<T>(_ type: T.Type) -> T? {
        guard let index = types.firstIndex(of: ObjectIdentifier(type)) else { return nil }
        return values[index] as? T
    }

    /// The dependency of type `T`; throws if the host forgot to provide it.
    public func require<T>(_ type: T.Type) throws -> T {
        guard let value = self[type] else { throw NavigationError("no \(T.self) in the environment") }
        return value
    }
}
