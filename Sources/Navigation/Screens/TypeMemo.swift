import Synchronization

/// Values read off a type by reflection (a screen's definition, a payload's fields), computed once
/// per type and kept: they are asked for on every event, and a type never changes.
final class TypeMemo<Value: Sendable>: Sendable {
    private let values = Mutex<[ObjectIdentifier: Value]>([:])

    /// The value for `type`, made by `make` the first time (outside the lock: two threads asking
    /// at once may both make it, and one wins).
    func value(for type: Any.Type, make: () -> Value) -> Value {
        let key = ObjectIdentifier(type)
        if let known = values.withLock({ $0[key] }) { return known }
        let made = make()
        return values.withLock { values in
            if let known = values[key] { return known }
            values[key] = made
            return made
        }
    }
}
