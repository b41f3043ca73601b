/// The key a coordinator starts a child under, unique among its children. Declare each once,
/// `extension ChildKey { static let registration = ChildKey("registration") }`, and a mistyped
/// key is a compile error.
public struct ChildKey: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A key with this name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// A tab of a tab layer: its name on the wire. Declare each once,
/// `extension TabKey { static let home = TabKey("home") }`.
public struct TabKey: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}
