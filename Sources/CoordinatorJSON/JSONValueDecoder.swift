import Foundation

/// Decodes `Decodable` values straight from a `JSONValue`, with `JSONDecoder`'s default
/// strategies but for dates (the counterpart of `JSONValueEncoder`): event payloads, screen
/// props and snapshots are decoded from values already parsed, without printing them back to
/// text. A date is read from an RFC 3339 string, or from seconds since 2001 as snapshots
/// stored before dates were strings hold them.
package struct JSONValueDecoder {
    package var userInfo: [CodingUserInfoKey: Any] = [:]

    package init() {}

    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder.unbox(value, as: T.self, codingPath: [], userInfo: userInfo)
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    /// The path to the container `value` is in, and its key there: the path is put together only
    /// when asked for (a nested container, an error), since most values are leaves.
    let parentPath: [any CodingKey]
    let key: (any CodingKey)?
    let userInfo: [CodingUserInfoKey: Any]

    init(value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.init(value: value, parentPath: codingPath, key: nil, userInfo: userInfo)
    }

    init(value: JSONValue, parentPath: [any CodingKey], key: (any CodingKey)?, userInfo: [CodingUserInfoKey: Any]) {
        self.value = value
        self.parentPath = parentPath
        self.key = key
        self.userInfo = userInfo
    }

    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw Self.mismatch([String: Any].self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedContainer(members: members, codingPath: codingPath, userInfo: userInfo))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw Self.mismatch([Any].self, value, codingPath) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath, userInfo: userInfo)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// `value` as a `T`: the common leaf types directly, anything else through its `init(from:)`.
    /// Types are compared, not cast, and the coding path is put together only for an error or a
    /// nested value: most values are leaves.
    static func unbox<T: Decodable>(
        _ value: JSONValue, as type: T.Type, codingPath: @autoclosure () -> [any CodingKey],
        userInfo: [CodingUserInfoKey: Any]
    ) throws -> T {
        if T.self == String.self { return unsafeBitCast(try string(value, codingPath()), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try integer(value, Int.self, codingPath()), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(value, codingPath()), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try double(value, codingPath()), to: T.self) }
        if T.self == JSONValue.self { return unsafeBitCast(value, to: T.self) }
        if T.self == [String: JSONValue].self {  // screen props: already in this shape
            guard case .object(let members) = value else { throw mismatch(T.self, value, codingPath()) }
            return unsafeBitCast(members, to: T.self)
        }
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try string(value, codingPath())) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath(), debugDescription: "not valid Base64"))
            }
            return unsafeBitCast(data, to: T.self)
        }
        if T.self == URL.self {
            guard let url = URL(string: try string(value, codingPath())) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath(), debugDescription: "not a valid URL"))
            }
            return unsafeBitCast(url, to: T.self)
        }
        if T.self == Decimal.self { return unsafeBitCast(Decimal(try double(value, codingPath())), to: T.self) }
        if T.self == Date.self { return unsafeBitCast(try date(value, codingPath()), to: T.self) }
        return try T(from: ValueDecoder(value: value, codingPath: codingPath(), userInfo: userInfo))
    }

    static func string(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, codingPath()) }
        return string
    }

    static func bool(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, codingPath()) }
        return bool
    }

    static func double(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
        switch value {
        case .int(let int): return Double(int)
        case .double(let double): return double
        default: throw mismatch(Double.self, value, codingPath())
        }
    }

    /// An RFC 3339 string, as dates are written; or a number of seconds since 2001, as
    /// `JSONEncoder` wrote them and snapshots stored before dates were strings hold them.
    static func date(_ value: JSONValue, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Date {
        switch value {
        case .string(let text):
            guard let date = RFC3339.date(from: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath(), debugDescription: "\(text) is not an RFC 3339 date-time"))
            }
            return date
        case .int, .double: return Date(timeIntervalSinceReferenceDate: try double(value, codingPath()))
        default: throw mismatch(Date.self, value, codingPath())
        }
    }

    static func integer<I: FixedWidthInteger>(
        _ value: JSONValue, _ type: I.Type, _ codingPath: @autoclosure () -> [any CodingKey]
    ) throws -> I {
        let exact: I?
        switch value {
        case .int(let int): exact = I(exactly: int)
        case .double(let double): exact = I(exactly: double)
        default: throw mismatch(I.self, value, codingPath())
        }
        guard let exact else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath(), debugDescription: "the number \(value.serializedString) does not fit in \(I.self)"))
        }
        return exact
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
        let found: String
        switch value {
        case .null: found = "null"
        case .bool: found = "a boolean"
        case .int, .double: found = "a number"
        case .string: found = "a string"
        case .array: found = "an array"
        case .object: found = "an object"
        }
        return DecodingError.typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "expected \(type), found \(found)"))
    }
}

extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try Self.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try Self.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try Self.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try Self.double(value, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try Self.integer(value, type, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Self.integer(value, type, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Self.integer(value, type, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Self.integer(value, type, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Self.integer(value, type, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try Self.integer(value, type, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Self.integer(value, type, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Self.integer(value, type, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Self.integer(value, type, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Self.integer(value, type, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try Self.unbox(value, as: type, codingPath: codingPath, userInfo: userInfo)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }
    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no value for the key \"\(key.stringValue)\""))
        }
        return ValueDecoder(value: value, parentPath: codingPath, key: key, userInfo: userInfo)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { superDecoder(named: ValueCodingKey("super")) }
    func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(named: key) }

    private func superDecoder(named key: any CodingKey) -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key], userInfo: userInfo)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.elements = elements
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The decoder of the next element, moving past it.
    private mutating func next(_ type: Any.Type) throws -> ValueDecoder {
        let key = ValueCodingKey(index: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath + [key], debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], parentPath: codingPath, key: key, userInfo: userInfo)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next([String: Any].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}
