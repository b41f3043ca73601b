import Foundation

/// Encodes `Encodable` values straight into a `JSONValue`, or straight into its canonical bytes
/// (what `serialized()` writes), with `JSONEncoder`'s default strategies but for dates: `Data` as
/// Base64, URLs as their absolute string, an error for a non-finite number, and dates as RFC 3339
/// strings in UTC (`2026-11-23T13:46:40Z`), the one date form of props, payloads and snapshots.
///
/// Hand-written (no package of ours encodes into a value tree) because screen props are encoded
/// on every event: going through `JSONEncoder`'s bytes and parsing them back cost a third of the
/// shipped app's event. Objects are built as member lists, not dictionaries: the bytes are written
/// by sorting each list once, with no hashing (a user's page of posts spent a third of its
/// encoding building dictionaries that were only serialized).
package struct JSONValueEncoder {
    package var userInfo: [CodingUserInfoKey: Any] = [:]

    package init() {}

    package func encode(_ value: some Encodable) throws -> JSONValue {
        try ValueEncoder.box(value, codingPath: [], userInfo: userInfo).value
    }

    /// `value`'s canonical JSON bytes, equal to `encode(value).serialized()`. When `value` is an
    /// object, each of `nullFields` it lacks is written as `null`; a value that is not an object is
    /// then written as the object of those nulls.
    package func serialize(_ value: some Encodable, nullFields: (some Sequence<String>)? = [String]?.none) throws -> [UInt8] {
        if nullFields == nil, let writable = value as? any JSONWritable {
            var output: [UInt8] = []
            output.reserveCapacity(256)
            try writable.writeJSON(to: &output, nullForNil: false)
            return output
        }
        var part = try ValueEncoder.box(value, codingPath: [], userInfo: userInfo)
        if let nullFields {
            let object: ObjectUnderConstruction
            if case .object(let existing) = part.resolved {
                object = existing
            } else if case .done(.object(let members)) = part.resolved {
                object = ObjectUnderConstruction(members)
            } else {
                object = ObjectUnderConstruction()
            }
            object.addNulls(for: nullFields)
            part = .object(object)
        }
        var output: [UInt8] = []
        output.reserveCapacity(512)
        part.write(to: &output)
        return output
    }
}

/// A value being encoded. Containers are reference types because a nested container, or a
/// `superEncoder`, keeps writing into its place after its parent handed it out; the value or its
/// bytes are read once everything is written.
private enum EncodedPart {
    case done(JSONValue)
    case object(ObjectUnderConstruction)
    case array(ArrayUnderConstruction)
    case deferred(ValueEncoder)

    /// A deferred encoder's own part, followed; like `JSONEncoder`, a value that encoded nothing is
    /// an empty object.
    var resolved: EncodedPart {
        guard case .deferred(let encoder) = self else { return self }
        return encoder.part?.resolved ?? .done(.object([:]))
    }

    var value: JSONValue {
        switch resolved {
        case .done(let value): value
        case .object(let object): object.value
        case .array(let array): array.value
        case .deferred: .object([:])  // resolved never is
        }
    }

    func write(to output: inout [UInt8]) {
        switch resolved {
        case .done(let value): value.write(to: &output)
        case .object(let object): object.write(to: &output)
        case .array(let array): array.write(to: &output)
        case .deferred: output.appendLiteral("{}")  // resolved never is
        }
    }
}

/// An object being written: its members in the order they came, a key written twice counting
/// once with its last value, as a dictionary would.
private final class ObjectUnderConstruction {
    private var members: [(key: String, part: EncodedPart)] = []

    init() {}

    init(_ values: [String: JSONValue]) {
        members = values.map { ($0.key, .done($0.value)) }
    }

    func set(_ key: String, _ part: EncodedPart) { members.append((key, part)) }

    /// Adds `null` for each of `keys` not set.
    func addNulls(for keys: some Sequence<String>) {
        for key in keys where !members.contains(where: { $0.key == key }) { members.append((key, .done(.null))) }
    }

    var value: JSONValue {
        var values: [String: JSONValue] = [:]
        values.reserveCapacity(members.count)
        for (key, part) in members { values[key] = part.value }
        return .object(values)
    }

    /// `{` the members sorted by key `}`, as `JSONValue.write` orders a dictionary's.
    func write(to output: inout [UInt8]) {
        // Sorted by key, then by arrival, so that of equal keys the last one set comes last.
        let order = members.indices.sorted { left, right in
            let (leftKey, rightKey) = (members[left].key, members[right].key)
            return leftKey == rightKey ? left < right : leftKey < rightKey
        }
        output.append(UInt8(ascii: "{"))
        var first = true
        for (position, index) in order.enumerated() {
            let member = members[index]
            if position + 1 < order.count, members[order[position + 1]].key == member.key { continue }
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            JSONValue.writeString(member.key, to: &output)
            output.append(UInt8(ascii: ":"))
            member.part.write(to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}

/// An array being written, its elements in order.
private final class ArrayUnderConstruction {
    private var elements: [EncodedPart] = []

    var count: Int { elements.count }

    func append(_ part: EncodedPart) { elements.append(part) }

    var value: JSONValue { .array(elements.map(\.value)) }

    func write(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            element.write(to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }
}

private final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    /// What this encoder's value became: set by the first container asked for.
    var part: EncodedPart?

    init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: ObjectUnderConstruction
        if case .object(let existing)? = part {
            object = existing  // asked again (a superclass and its subclass): the same object
        } else {
            object = ObjectUnderConstruction()
            part = .object(object)
        }
        return KeyedEncodingContainer(KeyedContainer(object: object, codingPath: codingPath, userInfo: userInfo))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: ArrayUnderConstruction
        if case .array(let existing)? = part {
            array = existing
        } else {
            array = ArrayUnderConstruction()
            part = .array(array)
        }
        return UnkeyedContainer(array: array, codingPath: codingPath, userInfo: userInfo)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    /// `value` encoded: the common leaf types directly, anything else through its `encode(to:)`.
    /// The coding path is built only when needed (a nested value, an error): most values are leaves.
    static func box<T: Encodable>(
        _ value: T, codingPath: @autoclosure () -> [any CodingKey], userInfo: [CodingUserInfoKey: Any]
    ) throws -> EncodedPart {
        // Compared by type, then reinterpreted (T is that type): a chain of failed dynamic casts
        // per value was a few per cent of an event.
        if T.self == String.self { return .done(.string(unsafeBitCast(value, to: String.self))) }
        if T.self == Int.self { return .done(.int(unsafeBitCast(value, to: Int.self))) }
        if T.self == Bool.self { return .done(.bool(unsafeBitCast(value, to: Bool.self))) }
        if T.self == Double.self { return .done(try JSONValue.number(unsafeBitCast(value, to: Double.self), codingPath: codingPath())) }
        if T.self == JSONValue.self { return .done(unsafeBitCast(value, to: JSONValue.self)) }
        if T.self == Data.self { return .done(.string(unsafeBitCast(value, to: Data.self).base64EncodedString())) }
        if T.self == URL.self { return .done(.string(unsafeBitCast(value, to: URL.self).absoluteString)) }
        if T.self == Decimal.self {
            return .done(.double(NSDecimalNumber(decimal: unsafeBitCast(value, to: Decimal.self)).doubleValue))
        }
        if T.self == Date.self {
            // RFC 3339 in UTC, not `JSONEncoder`'s default of seconds since 2001 (see `RFC3339`).
            let date = unsafeBitCast(value, to: Date.self)
            guard let text = RFC3339.string(from: date) else {
                throw EncodingError.invalidValue(
                    date, .init(codingPath: codingPath(), debugDescription: "\(date) has no RFC 3339 form (years 0000–9999)"))
            }
            return .done(.string(text))
        }
        let encoder = ValueEncoder(codingPath: codingPath(), userInfo: userInfo)
        try value.encode(to: encoder)
        // Kept as parts, not made a `JSONValue` yet: the caller may want only the bytes.
        return encoder.part?.resolved ?? .done(.object([:]))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: ObjectUnderConstruction
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    private func set(_ value: JSONValue, _ key: Key) { object.set(key.stringValue, .done(value)) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try JSONValue.number(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try JSONValue.number(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(JSONValue.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(JSONValue.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(JSONValue.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(JSONValue.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(JSONValue.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(JSONValue.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(JSONValue.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(JSONValue.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(JSONValue.integer(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, try ValueEncoder.box(value, codingPath: codingPath + [key], userInfo: userInfo))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = ObjectUnderConstruction()
        object.set(key.stringValue, .object(nested))
        return KeyedEncodingContainer(
            KeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key], userInfo: userInfo))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayUnderConstruction()
        object.set(key.stringValue, .array(nested))
        return UnkeyedContainer(array: nested, codingPath: codingPath + [key], userInfo: userInfo)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let encoder = ValueEncoder(codingPath: codingPath + [ValueCodingKey(name)], userInfo: userInfo)
        object.set(name, .deferred(encoder))
        return encoder
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let array: ArrayUnderConstruction
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    var count: Int { array.count }

    private var nextPath: [any CodingKey] { codingPath + [ValueCodingKey(index: count)] }

    mutating func encodeNil() throws { array.append(.done(.null)) }
    mutating func encode(_ value: Bool) throws { array.append(.done(.bool(value))) }
    mutating func encode(_ value: String) throws { array.append(.done(.string(value))) }
    mutating func encode(_ value: Double) throws {
        array.append(.done(try JSONValue.number(value, codingPath: nextPath)))
    }
    mutating func encode(_ value: Float) throws {
        array.append(.done(try JSONValue.number(value, codingPath: nextPath)))
    }
    mutating func encode(_ value: Int) throws { array.append(.done(.int(value))) }
    mutating func encode(_ value: Int8) throws { array.append(.done(JSONValue.integer(value))) }
    mutating func encode(_ value: Int16) throws { array.append(.done(JSONValue.integer(value))) }
    mutating func encode(_ value: Int32) throws { array.append(.done(JSONValue.integer(value))) }
    mutating func encode(_ value: Int64) throws { array.append(.done(JSONValue.integer(value))) }
    mutating func encode(_ value: UInt) throws { array.append(.done(JSONValue.integer(value))) }
    mutating func encode(_ value: UInt8) throws { array.append(.done(JSONValue.integer(value))) }
    mutating func encode(_ value: UInt16) throws { array.append(.done(JSONValue.integer(value))) }
    mutating func encode(_ value: UInt32) throws { array.append(.done(JSONValue.integer(value))) }
    mutating func encode(_ value: UInt64) throws { array.append(.done(JSONValue.integer(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.append(try ValueEncoder.box(value, codingPath: nextPath, userInfo: userInfo))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = ObjectUnderConstruction()
        let path = nextPath
        array.append(.object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: path, userInfo: userInfo))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArrayUnderConstruction()
        let path = nextPath
        array.append(.array(nested))
        return UnkeyedContainer(array: nested, codingPath: path, userInfo: userInfo)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = ValueEncoder(codingPath: nextPath, userInfo: userInfo)
        array.append(.deferred(encoder))
        return encoder
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: JSONValue) { encoder.part = .done(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try JSONValue.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try JSONValue.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { set(.int(value)) }
    mutating func encode(_ value: Int8) throws { set(JSONValue.integer(value)) }
    mutating func encode(_ value: Int16) throws { set(JSONValue.integer(value)) }
    mutating func encode(_ value: Int32) throws { set(JSONValue.integer(value)) }
    mutating func encode(_ value: Int64) throws { set(JSONValue.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(JSONValue.integer(value)) }
    mutating func encode(_ value: UInt8) throws { set(JSONValue.integer(value)) }
    mutating func encode(_ value: UInt16) throws { set(JSONValue.integer(value)) }
    mutating func encode(_ value: UInt32) throws { set(JSONValue.integer(value)) }
    mutating func encode(_ value: UInt64) throws { set(JSONValue.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.part = try ValueEncoder.box(value, codingPath: codingPath, userInfo: encoder.userInfo)
    }
}

/// A coding key made at run time: an array index or a `super` key.
struct ValueCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}

extension JSONValue {
    /// `double` as a JSON number; an error (at `codingPath`) for a non-finite one.
    static func number(_ double: Double, codingPath: [any CodingKey]) throws -> JSONValue {
        guard double.isFinite else {
            throw EncodingError.invalidValue(
                double, .init(codingPath: codingPath, debugDescription: "\(double) is not a JSON number"))
        }
        return .double(double)
    }

    static func number(_ float: Float, codingPath: [any CodingKey]) throws -> JSONValue {
        // Through its shortest text, so that 0.1 as a Float stays 0.1 and not 0.10000000149.
        try number(Double(String(float)) ?? Double(float), codingPath: codingPath)
    }

    static func integer(_ value: some BinaryInteger) -> JSONValue {
        Int(exactly: value).map(JSONValue.int) ?? .double(Double(value))
    }
}
