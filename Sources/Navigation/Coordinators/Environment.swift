/// The dependencies a session's coordinators reach models through (Ljungberg's appContext,
/// radianttap's AppDependency), injected at the root for each event and never snapshotted.
public struct Environment {
    // A handful of entries, found by a scan of their types: a dictionary cost an allocation, a
    // rehash per growth and a hash per lookup on every event, for fewer than ten dependencies.
    // The types are kept apart from the values so that the scan copies no existential.
    private var types: [ObjectIdentifier] = []
    private var values: [Any] = []
    /// Set for an environment built on first use (`init(deferred:)`); its entries are then there.
    private var deferred: Deferred?

    /// An empty environment.
    public init() {}

    /// An environment that `make` builds when a dependency is first asked for or set, once: an
    /// event that only navigates asks for none, and building the app's models, boxing each and
    /// releasing them was a few per cent of its instructions. Copies share the one build.
    package init(deferred make: @escaping () -> Environment) {
        deferred = Deferred(make)
    }

    /// Adds or replaces the dependency of type `T`.
    public mutating func set<T>(_ value: T) {
        if let deferred { self = deferred.environment }
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
        if let deferred { return deferred.environment[type] }
        guard let index = types.firstIndex(of: ObjectIdentifier(type)) else { return nil }
        return values[index] as? T
    }

    /// The dependency of type `T`; throws if the host forgot to provide it.
    public func require<T>(_ type: T.Type) throws -> T {
        guard let value = self[type] else { throw NavigationError("no \(T.self) in the environment") }
        return value
    }

    /// The builder of a deferred environment and, once asked, what it built. An environment lives
    /// within one run of an event, on the thread that runs it (it is not `Sendable`).
    private final class Deferred {
        private var make: (() -> Environment)?
        private var made: Environment?

        init(_ make: @escaping () -> Environment) { self.make = make }

        var environment: Environment {
            if let made { return made }
            let built = make?() ?? Environment()
            made = built
            make = nil
            return built
        }
    }
}
