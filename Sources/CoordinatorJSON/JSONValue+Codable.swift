extension JSONValue {
    /// `value` as a JSON value (through its `Encodable` conformance).
    public static func encode(_ value: some Encodable) throws -> JSONValue {
        try JSONValueEncoder().encode(value)
    }

    /// `value`'s canonical JSON bytes (sorted keys, compact), equal to `encode(value).serialized()`
    /// but written without building the value first.
    public static func serialize(_ value: some Encodable) throws -> [UInt8] {
        try JSONValueEncoder().serialize(value)
    }

    /// A `T` decoded from `value` (through its `Decodable` conformance).
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONValueDecoder().decode(T.self, from: value)
    }
}
