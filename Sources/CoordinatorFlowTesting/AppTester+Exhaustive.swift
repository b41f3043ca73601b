import Navigation

// Exhaustive mode, as TCA's `TestStore` has it: every change an event makes to the State a client
// receives is asserted, or the test fails naming the change nobody looked at.

extension AppTester {
    /// Asserts the State's value at `path` (`top`, `user.displayName`,
    /// `stack[0].tabs[0].screens[1].props.text`; a path to an object or a list compares all of
    /// it), and counts every change the last event made at or under `path` as asserted.
    public mutating func expect(_ path: String, _ value: JSONValue) throws {
        let actual = StatePath(path).value(in: state)
        guard actual == value else { throw StateMismatch(path: path, expected: value, actual: actual) }
        unasserted = unasserted.filter { !StatePath($0.key).isWithin(path) }
    }

    /// Asserts that nothing is at `path` any more (a screen popped, a tab gone), and counts the
    /// changes under it as asserted.
    public mutating func expectRemoved(_ path: String) throws {
        if let actual = StatePath(path).value(in: state) { throw StateMismatch(path: path, expected: nil, actual: actual) }
        unasserted = unasserted.filter { !StatePath($0.key).isWithin(path) }
    }

    /// Counts the last event's changes as asserted without looking at them (TCA's `skipReceivedActions`).
    public mutating func skipChanges() {
        unasserted = [:]
    }

    /// Ends an exhaustive test: throws when the last event changed something no assertion looked at.
    public func finish() throws {
        if exhaustive, !unasserted.isEmpty { throw UnassertedChanges(changes: unasserted) }
    }

    /// What changed from `before` to `after`, leaf by leaf, but the version (one more per event).
    static func changes(from before: JSONValue, to after: JSONValue) -> [String: StateChange] {
        let (old, new) = (StatePath.leaves(of: before), StatePath.leaves(of: after))
        var changes: [String: StateChange] = [:]
        for path in Set(old.keys).union(new.keys) where path != "version" && old[path] != new[path] {
            changes[path] = StateChange(old: old[path], new: new[path])
        }
        return changes
    }
}

/// One leaf of the State an event changed: nil on a side for a leaf that was not there.
public struct StateChange: Equatable, Sendable {
    public let old: JSONValue?
    public let new: JSONValue?

    public init(old: JSONValue?, new: JSONValue?) { (self.old, self.new) = (old, new) }
}

/// An exhaustive test sent an event, or finished, with changes of the last event no assertion
/// looked at: each is named with its value before and after.
public struct UnassertedChanges: Error, CustomStringConvertible {
    public let changes: [String: StateChange]
    public var description: String {
        func text(_ value: JSONValue?) -> String { value.map { $0.serializedString } ?? "(none)" }
        let lines = changes.sorted { $0.key < $1.key }.map { "  \($0.key): \(text($0.value.old)) → \(text($0.value.new))" }
        return "the last event changed what no assertion looked at (expect(_:_:) each, or skipChanges()):\n"
            + lines.joined(separator: "\n")
    }
}

/// `expect(_:_:)` found another value at its path.
public struct StateMismatch: Error, CustomStringConvertible {
    public let path: String
    public let expected: JSONValue?
    public let actual: JSONValue?
    public var description: String {
        func text(_ value: JSONValue?) -> String { value.map { $0.serializedString } ?? "nothing" }
        return "\(path): expected \(text(expected)), found \(text(actual))"
    }
}

/// A place in the State: keys joined by `.`, list positions in `[n]`.
struct StatePath {
    enum Step: Equatable { case key(String), index(Int) }
    let steps: [Step]

    init(_ text: String) {
        var steps: [Step] = []
        for part in text.split(separator: ".") {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                if bracket > rest.startIndex { steps.append(.key(String(rest[..<bracket]))) }
                rest = rest[bracket...]
                while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    steps.append(.index(Int(rest[rest.index(after: rest.startIndex)..<close]) ?? -1))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                steps.append(.key(String(rest)))
            }
        }
        self.steps = steps
    }

    /// The value at this path in `value`, nil when there is none.
    func value(in value: JSONValue) -> JSONValue? {
        var current: JSONValue? = value
        for step in steps {
            switch step {
            case .key(let key): current = current?.objectValue?[key]
            case .index(let index):
                guard let items = current?.arrayValue, items.indices.contains(index) else { return nil }
                current = items[index]
            }
        }
        return current
    }

    /// True when this path is `other` or lies under it.
    func isWithin(_ other: String) -> Bool {
        let prefix = StatePath(other).steps
        return steps.count >= prefix.count && Array(steps.prefix(prefix.count)) == prefix
    }

    /// Every leaf of `value` by its path (an empty object or list is a leaf).
    static func leaves(of value: JSONValue, at path: String = "") -> [String: JSONValue] {
        switch value {
        case .object(let members) where !members.isEmpty:
            return members.reduce(into: [:]) { leaves, member in
                leaves.merge(Self.leaves(of: member.value, at: path.isEmpty ? member.key : path + "." + member.key)) { $1 }
            }
        case .array(let items) where !items.isEmpty:
            return items.enumerated().reduce(into: [:]) { leaves, item in
                leaves.merge(Self.leaves(of: item.element, at: path + "[\(item.offset)]")) { $1 }
            }
        default:
            return [path: value]
        }
    }
}
