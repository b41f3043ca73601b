/// A value bound to a statement parameter (`?1`, `?2`, … in the SQL text, on every backend).
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral,
    ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLValue {
    /// Text, or NULL when `value` is nil.
    public static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    /// An integer from a Swift `Int`.
    public static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
    /// An integer, or NULL when `value` is nil.
    public static func integer(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }
}
