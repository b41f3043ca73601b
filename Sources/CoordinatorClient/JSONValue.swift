import Foundation

/// A JSON value: what props, payloads and catalog entries hold. The server's screens are typed,
/// but a generic shell renders any app, so it reads them through this one type.
// Not Navigation's `JSONValue`: this module builds on Apple platforms with Foundation only and
// depends on none of the server's modules (LayeringTests.theClientUsesFoundationOnly).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The string, or nil for any other kind.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The number, or nil for any other kind.
    public var numberValue: Double? { if case .number(let value) = self { value } else { nil } }
    /// The number when it is whole (an `integer` field), or nil.
    public var intValue: Int? { numberValue.flatMap { Int(exactly: $0) } }
    /// The Boolean, or nil for any other kind.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The elements, or nil for any other kind.
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    /// The members, or nil for any other kind.
    public var objectValue: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    /// True for `null`.
    public var isNull: Bool { self == .null }

    /// The member `key` of an object (nil for a missing member or another kind).
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Whole numbers go out as integers: the server's `integer` fields refuse `1.0`.
            if let whole = Int(exactly: value) { try container.encode(whole) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }
}
