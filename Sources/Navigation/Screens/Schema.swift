import Foundation

/// The fields of a `Decodable` struct, read off the type itself: a decoder that answers every
/// request with a placeholder and writes down what was asked for (each key, its type, whether
/// it was optional). So a screen's catalog entry comes from the very types the flow uses.
enum Schema {
    /// The fields `type` decodes, in the order its `init(from:)` asks for them.
    static func fields<T: Decodable>(of type: T.Type) -> [FieldDeclaration] { read(type).fields }

    /// What `type` is made of, nested members and list items included: presentation hints are
    /// checked against it when an app is built.
    static func shape<T: Decodable>(of type: T.Type) -> Shape { read(type).shape }

    /// What `type` is on the wire, members' types and list items included (for documents).
    static func valueSchema<T: Decodable>(of type: T.Type) -> ValueSchema { read(type).schema }

    private static func read<T: Decodable>(_ type: T.Type) -> (fields: [FieldDeclaration], shape: Shape, schema: ValueSchema) {
        known.value(for: type) {
            let recorder = Recorder(depth: 0)
            do {
                _ = try T(from: SchemaDecoder(recorder: recorder))
            } catch {
                // A placeholder the type refused (an enum's raw value): the fields after it are unknown.
                recorder.complete = false
            }
            return (recorder.fields, recorder.shape, recorder.schema(of: T.self))
        }
    }

    private static let known = TypeMemo<(fields: [FieldDeclaration], shape: Shape, schema: ValueSchema)>()

    /// How deep list items are followed (a type may hold a list of itself).
    static let maximumDepth = 8

    /// How deep values are followed at all.
    static let maximumProbeDepth = 32

    /// What one value asked for: its fields and their shapes when it is an object, or what its
    /// single value is.
    final class Recorder {
        let depth: Int
        var fields: [FieldDeclaration] = []
        var kind: FieldType?
        /// The members' shapes by name, once the value asked for a keyed container.
        var members: [String: Shape]?
        /// What its single value or unkeyed container held, when it asked for one.
        var single: Shape?
        /// False once part of the type could not be followed: then any member may be there.
        var complete = true
        /// The members' schemas in decoding order, once the value asked for a keyed container.
        var memberSchemas: [ValueMember] = []
        /// What its single value or unkeyed container held, when it asked for one.
        var singleSchema: ValueSchema?

        init(depth: Int) { self.depth = depth }

        /// The value's schema, `type` being what it decoded as.
        func schema(of type: Any.Type) -> ValueSchema {
            if members != nil { return .object(type: ValueSchema.typeName(type), members: memberSchemas, complete: complete) }
            return complete ? singleSchema ?? .open : .open
        }

        var shape: Shape {
            guard complete else { return .unknown }
            if let members { return .object(members) }
            return single ?? .unknown
        }
    }
}

/// What a value of a type is made of, as far as its decoding tells.
indirect enum Shape: Sendable {
    /// A string, number or boolean.
    case scalar
    /// An object with these members.
    case object([String: Shape])
    /// A list of such elements.
    case array(Shape)
    /// Not known (a dictionary, free-form JSON, a type that could not be followed): any member may be there.
    case unknown

    /// The member `name` of this object, or of the items of this list.
    func member(_ name: String) -> Shape? {
        switch self {
        case .scalar: nil
        case .object(let members): members[name]
        case .array(let element): element.member(name)
        case .unknown: .unknown
        }
    }

    /// Every member name, at any depth.
    var names: Set<String> {
        switch self {
        case .scalar, .unknown: []
        case .object(let members): members.reduce(into: Set(members.keys)) { $0.formUnion($1.value.names) }
        case .array(let element): element.names
        }
    }

    /// True when any name may be a member somewhere inside.
    var isOpen: Bool {
        switch self {
        case .scalar: false
        case .unknown: true
        case .object(let members): members.values.contains { $0.isOpen }
        case .array(let element): element.isOpen
        }
    }
}

/// Decodes placeholders; records into `recorder` what the value asked for.
private struct SchemaDecoder: Decoder {
    let recorder: Schema.Recorder
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        recorder.kind = recorder.kind ?? .object
        recorder.members = recorder.members ?? [:]
        return KeyedDecodingContainer(SchemaKeyedContainer<Key>(recorder: recorder))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        recorder.kind = recorder.kind ?? .array
        recorder.single = recorder.single ?? .array(.unknown)
        recorder.singleSchema = recorder.singleSchema ?? .array(.open)
        return EmptyUnkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SchemaSingleValueContainer(recorder: recorder)
    }
}

/// A placeholder for each primitive, and the field type it is declared as.
private func placeholder<T>(_ type: T.Type) -> (value: T, kind: FieldType)? {
    switch type {
    case is String.Type: ("" as! T, .string)
    case is Bool.Type: (false as! T, .boolean)
    case is Int.Type: (0 as! T, .integer)
    case is Int64.Type: (Int64(0) as! T, .integer)
    case is Int32.Type: (Int32(0) as! T, .integer)
    // Every integer needs one: the standard library's decode themselves through a single-value
    // container, which, probed, would decode them again without end.
    case is Int16.Type: (Int16(0) as! T, .integer)
    case is Int8.Type: (Int8(0) as! T, .integer)
    case is UInt.Type: (UInt(0) as! T, .integer)
    case is UInt64.Type: (UInt64(0) as! T, .integer)
    case is UInt32.Type: (UInt32(0) as! T, .integer)
    case is UInt16.Type: (UInt16(0) as! T, .integer)
    case is UInt8.Type: (UInt8(0) as! T, .integer)
    case is Double.Type: (0.0 as! T, .number)
    case is Float.Type: (Float(0) as! T, .number)
    case is Decimal.Type: (Decimal(0) as! T, .number)
    case is Date.Type: (Date(timeIntervalSinceReferenceDate: 0) as! T, .dateTime)
    case is URL.Type: (URL(string: "https://example.invalid/")! as! T, .url)
    default: nil
    }
}

/// A list's elements are followed apart from the list (which decodes as empty), so that list
/// items have a shape too; a type that holds a list of itself stops at `Schema.maximumDepth`.
private protocol SchemaList {
    static func element(depth: Int) -> (field: FieldDeclaration?, shape: Shape, schema: ValueSchema)
}

extension Array: SchemaList where Element: Decodable {
    fileprivate static func element(depth: Int) -> (field: FieldDeclaration?, shape: Shape, schema: ValueSchema) {
        guard depth < Schema.maximumDepth, let probed = try? probe(Element.self, depth: depth) else {
            return (nil, .unknown, .open)
        }
        return (probed.field, probed.shape, probed.schema)
    }
}

/// Dictionaries have members named at run time, free-form JSON anything: no shape to check against.
private protocol SchemaOpenValue {}
extension Dictionary: SchemaOpenValue {}
extension JSONValue: SchemaOpenValue {}

/// Decodes `type` with a nested schema decoder: a placeholder value, the kind it asked for, and its shape.
private func probe<T: Decodable>(_ type: T.Type, depth: Int) throws -> (
    value: T, field: FieldDeclaration?, shape: Shape, schema: ValueSchema
) {
    if let (value, kind) = placeholder(type) {
        let field = FieldDeclaration("", kind)
        return (value, field, .scalar, .field(kind, field.text))
    }
    // A type that holds itself (a class, or through an optional box), or decodes itself as its own
    // single value: followed this far, then unknown, instead of without end.
    guard depth < Schema.maximumProbeDepth else {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "nested deeper than a schema follows"))
    }
    let nested = Schema.Recorder(depth: depth + 1)
    let value = try T(from: SchemaDecoder(recorder: nested))
    if let textual = T.self as? any TextField.Type {
        return (
            value, FieldDeclaration("", textual.fieldType, text: textual.textRule), .scalar,
            .field(textual.fieldType, textual.textRule)
        )
    }
    var field = nested.kind.map { FieldDeclaration("", $0) }
    if let list = T.self as? any SchemaList.Type {
        let element = list.element(depth: depth + 1)
        field = FieldDeclaration("", .array, items: element.field)
        return (value, field, .array(element.shape), .array(element.schema))
    } else if T.self is any SchemaOpenValue.Type {
        return (value, field, .unknown, .open)
    }
    // An object's members, when all of them could be followed.
    if nested.kind == .object, nested.complete { field = FieldDeclaration("", .object, members: nested.fields) }
    return (value, field, nested.shape, nested.schema(of: T.self))
}

private struct SchemaKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: Schema.Recorder
    var codingPath: [any CodingKey] = []
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(type, key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try optional(type, key)
    }

    // The primitive overloads route through the generic ones, so optionals are seen as optional.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        let (value, field, shape, schema) = try probe(type, depth: recorder.depth)
        record(key, field, shape, schema, optional: false)
        return value
    }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let (_, field, shape, schema) = try probe(type, depth: recorder.depth)
        record(key, field, shape, schema, optional: true)
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        // Its members are not followed: any name may be one.
        record(key, FieldDeclaration("", .object), .unknown, .open, optional: false)
        return KeyedDecodingContainer(SchemaKeyedContainer<NestedKey>(recorder: Schema.Recorder(depth: recorder.depth + 1)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        record(key, FieldDeclaration("", .array), .array(.unknown), .array(.open), optional: false)
        return EmptyUnkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        // A superclass's members are not followed: any name may be one.
        recorder.complete = false
        return SchemaDecoder(recorder: Schema.Recorder(depth: recorder.depth + 1))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder() }

    private func record(_ key: Key, _ field: FieldDeclaration?, _ shape: Shape, _ schema: ValueSchema, optional: Bool) {
        recorder.members?[key.stringValue] = shape
        recorder.memberSchemas.append(ValueMember(name: key.stringValue, schema: schema, optional: optional))
        guard let field else { return }
        recorder.fields.append(field.named(key.stringValue, optional: optional))
    }
}

private struct SchemaSingleValueContainer: SingleValueDecodingContainer {
    let recorder: Schema.Recorder
    var codingPath: [any CodingKey] = []

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, field, shape, schema) = try probe(type, depth: recorder.depth)
        recorder.kind = recorder.kind ?? field?.type
        recorder.single = recorder.single ?? shape
        recorder.singleSchema = recorder.singleSchema ?? schema
        return value
    }
}

/// An array with no elements: the placeholder for every list.
private struct EmptyUnkeyedContainer: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] = []
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    private func exhausted() -> DecodingError {
        DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "a schema has no elements"))
    }

    mutating func decodeNil() throws -> Bool { throw exhausted() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw exhausted() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    { throw exhausted() }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw exhausted() }
    mutating func superDecoder() throws -> any Decoder { throw exhausted() }
}
