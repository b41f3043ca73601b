/// A screen's id: unique within its session and never reused (`s1`, `s2`, ...).
public struct ScreenID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    /// The screen id `rawValue` (`s12`).
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { rawValue }
}

/// A coordinator's id within its session's tree, never reused.
public typealias CoordinatorID = Int

/// A layer's id within its session, never reused.
public typealias LayerID = Int
