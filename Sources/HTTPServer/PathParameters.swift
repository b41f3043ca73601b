/// The values of a matched route's `{name}` segments, looked up by name.
///
/// A route has one or two parameters: kept as pairs and found by a scan, not in a dictionary,
/// which cost an allocation and a hash of each name per request.
package struct PathParameters: Sendable, Equatable {
    private var pairs: [(name: String, value: String)] = []

    package init() {}

    /// The value of `name`'s segment, or nil when the route has none of that name.
    package subscript(name: String) -> String? {
        for pair in pairs where pair.name == name { return pair.value }
        return nil
    }

    mutating func append(name: String, value: String) {
        if pairs.isEmpty { pairs.reserveCapacity(2) }
        pairs.append((name: name, value: value))
    }

    package static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }
}
