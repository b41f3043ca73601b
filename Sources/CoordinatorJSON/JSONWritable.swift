import Foundation

/// A value that writes its own canonical JSON (sorted keys, compact), the bytes its `Encodable`
/// conformance gives through `JSONValue.serialize`, without going through an `Encoder`.
///
/// Screen props are serialized on every event that shows a screen, and `Codable`'s containers
/// cost about ten thousand instructions for a small struct. Structs get this conformance from the
/// `@JSONWritable` macro (NavigationMacros); the common leaf types, optionals, arrays and
/// `String`-keyed dictionaries of writable values have it here; an enum with a raw value gets it
/// by declaring the conformance. A type's `Encodable` conformance stays what decoding, the catalog
/// and the OpenAPI document use: the two must write the same bytes, as the synthesized one does.
public protocol JSONWritable: Encodable {
    /// Appends the value's canonical JSON to `output`. `nullForNil`: an object writes each of its
    /// optional fields that is nil as `null` (a screen's props), instead of leaving it out (as
    /// `Codable` does for a nested value).
    func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws
}

/// A struct whose `writeJSON` writes an object of its stored properties (what `@JSONWritable`
/// generates): as a screen's props, it is written without `Codable`.
public protocol JSONWritableObject: JSONWritable {}

/// What `@JSONWritable`'s generated code calls to write an object's members.
public enum JSONWriting {
    /// Writes `"key":` and `value`, after a comma unless `first`.
    @inlinable
    public static func member(
        _ key: StaticString, _ value: some JSONWritable, to output: inout [UInt8], first: inout Bool
    ) throws {
        writeKey(key, to: &output, first: &first)
        try value.writeJSON(to: &output, nullForNil: false)
    }

    /// Writes `"key":` and a value that is only `Encodable`, through `Codable`.
    @inlinable
    @_disfavoredOverload
    public static func member(
        _ key: StaticString, _ value: some Encodable, to output: inout [UInt8], first: inout Bool
    ) throws {
        writeKey(key, to: &output, first: &first)
        output.append(contentsOf: try JSONValue.serialize(value))
    }

    /// Writes `"key":null`, after a comma unless `first`.
    @inlinable
    public static func null(_ key: StaticString, to output: inout [UInt8], first: inout Bool) {
        writeKey(key, to: &output, first: &first)
        output.append(contentsOf: [110, 117, 108, 108])  // null
    }

    /// `"key":`, after a comma unless `first`. The key is an identifier: nothing in it needs escaping.
    @inlinable
    public static func writeKey(_ key: StaticString, to output: inout [UInt8], first: inout Bool) {
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        output.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { output.append(contentsOf: $0) }
        // Byte by byte: appending a two-byte literal went through the generic sequence path.
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ":"))
    }
}

extension JSONValue: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws { write(to: &output) }
}

extension String: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws { JSONValue.writeString(self, to: &output) }
}

extension Bool: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        JSONValue.bool(self).write(to: &output)
    }
}

extension Double: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        try JSONValue.number(self, codingPath: []).write(to: &output)
    }
}

extension Float: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        try JSONValue.number(self, codingPath: []).write(to: &output)
    }
}

extension Decimal: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        JSONValue.double(NSDecimalNumber(decimal: self).doubleValue).write(to: &output)
    }
}

extension Date: JSONWritable {
    /// RFC 3339 in UTC, as every date of props, payloads and snapshots (see `JSONValueEncoder`).
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        guard let text = RFC3339.string(from: self) else {
            throw EncodingError.invalidValue(
                self, .init(codingPath: [], debugDescription: "\(self) has no RFC 3339 form (years 0000–9999)"))
        }
        JSONValue.writeString(text, to: &output)
    }
}

extension Data: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        JSONValue.writeString(base64EncodedString(), to: &output)
    }
}

extension URL: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        JSONValue.writeString(absoluteString, to: &output)
    }
}

extension UUID: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        JSONValue.writeString(uuidString, to: &output)
    }
}

extension Int: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws { output.appendDecimal(self) }
}

/// The other integers: as `Int` when they fit, else as a double (as `JSONValueEncoder`).
extension JSONWritable where Self: BinaryInteger {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        JSONValue.integer(self).write(to: &output)
    }
}

extension Int8: JSONWritable {}
extension Int16: JSONWritable {}
extension Int32: JSONWritable {}
extension Int64: JSONWritable {}
extension UInt: JSONWritable {}
extension UInt8: JSONWritable {}
extension UInt16: JSONWritable {}
extension UInt32: JSONWritable {}
extension UInt64: JSONWritable {}

/// An enum with a raw value writes it, as its synthesized `Codable` conformance encodes it.
extension JSONWritable where Self: RawRepresentable, RawValue: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        try rawValue.writeJSON(to: &output, nullForNil: false)
    }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        switch self {
        case .some(let value): try value.writeJSON(to: &output, nullForNil: false)
        case .none: JSONValue.null.write(to: &output)
        }
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        output.append(UInt8(ascii: "["))
        // Not `enumerated()`: from an app's module its iterator ran unspecialized, about 1,600
        // instructions an element (callgrind), as much as writing a small element itself.
        var first = true
        for element in self {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            try element.writeJSON(to: &output, nullForNil: false)
        }
        output.append(UInt8(ascii: "]"))
    }
}

extension Dictionary: JSONWritable where Key == String, Value: JSONWritable {
    public func writeJSON(to output: inout [UInt8], nullForNil: Bool) throws {
        output.append(UInt8(ascii: "{"))
        var first = true
        for member in sorted(by: { $0.key < $1.key }) {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            JSONValue.writeString(member.key, to: &output)
            output.append(UInt8(ascii: ":"))
            try member.value.writeJSON(to: &output, nullForNil: false)
        }
        output.append(UInt8(ascii: "}"))
    }
}
