/// The fields of a `Decodable` struct, read off the type itself: a decoder that answers every
/// request with a placeholder and writes down what was asked for (each key, its type, whether
/// it was optional). So a screen's catalog entry comes from the very types the flow uses.
enum Schema {
    /// The fields `type` decodes, in the order its `init(from:)` asks for them.
    static func fields<T: Decodable>(of type: T.Type) -> [FieldDeclaration] {
        known.value(for: type) {
            let recorder = Recorder()
            _ = try? T(from: SchemaDecoder(recorder: recorder))
            return recorder.fields
        }
    }

    private static let known = TypeMemo<[FieldDeclaration]>()

    /// What a nested value asked for, to give its field a type.
    final class Recorder {
        var fields: [FieldDeclaration] = []
        var kind: FieldType?
    }
}

/// Decodes placeholders; records into `recorder` the keys of the top level only.
private struct SchemaDecoder: Decoder {
    let recorder: Schema.Recorder
    var topLevel = true
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        recorder.kind = recorder.kind ?? .object
        return KeyedDecodingContainer(SchemaKeyedContainer<Key>(recorder: topLevel ? recorder : nil))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        recorder.kind = recorder.kind ?? .array
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
    case is Double.Type: (0.0 as! T, .integer)
    default: nil
    }
}

/// Decodes `type` with a nested schema decoder: a placeholder value, and the kind it asked for.
private func probe<T: Decodable>(_ type: T.Type) throws -> (value: T, field: FieldDeclaration?) {
    if let (value, kind) = placeholder(type) { return (value, FieldDeclaration("", kind)) }
    let nested = Schema.Recorder()
    let value = try T(from: SchemaDecoder(recorder: nested, topLevel: false))
    if let textual = T.self as? any TextField.Type {
        return (value, FieldDeclaration("", textual.fieldType, text: textual.textRule))
    }
    return (value, nested.kind.map { FieldDeclaration("", $0) })
}

private struct SchemaKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: Schema.Recorder?
    var codingPath: [any CodingKey] = []
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (value, field) = try probe(type)
        record(key, field, optional: false)
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let (_, field) = try probe(type)
        record(key, field, optional: true)
        return nil
    }

    // The primitive overloads route through the generic ones, so optionals are seen as optional.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        let (value, field) = try probe(type)
        record(key, field, optional: false)
        return value
    }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let (_, field) = try probe(type)
        record(key, field, optional: true)
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        record(key, FieldDeclaration("", .object), optional: false)
        return KeyedDecodingContainer(SchemaKeyedContainer<NestedKey>(recorder: nil))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        record(key, FieldDeclaration("", .array), optional: false)
        return EmptyUnkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { SchemaDecoder(recorder: Schema.Recorder(), topLevel: false) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder() }

    private func record(_ key: Key, _ field: FieldDeclaration?, optional: Bool) {
        guard let recorder, let field else { return }
        recorder.fields.append(FieldDeclaration(key.stringValue, field.type, optional: optional, text: field.text))
    }
}

private struct SchemaSingleValueContainer: SingleValueDecodingContainer {
    let recorder: Schema.Recorder
    var codingPath: [any CodingKey] = []

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, field) = try probe(type)
        recorder.kind = recorder.kind ?? field?.type
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
