import Navigation

/// A YAML value with its keys in the order they were written: what a generated document is
/// built of. Scalars are written as JSON (valid YAML), so no string is ever misread.
indirect enum YAMLNode: Sendable {
    case map([(String, YAMLNode)])
    case list([YAMLNode])
    case scalar(JSONValue)

    static func string(_ text: String) -> YAMLNode { .scalar(.string(text)) }

    /// `{$ref: '#/components/schemas/name'}`.
    static func ref(_ name: String) -> YAMLNode { .map([("$ref", .string("#/components/schemas/" + name))]) }

    /// The lines of this value as the body of a key or item indented by `indent` spaces.
    func lines(indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        switch self {
        case .scalar(let value): return [pad + value.serializedString]
        case .map(let members):
            return members.flatMap { key, value -> [String] in
                let head = pad + Self.key(key) + ":"
                if let inline = value.inline { return [head + " " + inline] }
                return [head] + value.lines(indent: indent + 2)
            }
        case .list(let items):
            return items.flatMap { item -> [String] in
                if let inline = item.inline { return [pad + "- " + inline] }
                var lines = item.lines(indent: indent + 2)
                lines[0] = pad + "- " + lines[0].dropFirst(indent + 2)
                return lines
            }
        }
    }

    /// The value on one line when it is a scalar or empty.
    private var inline: String? {
        switch self {
        case .scalar(let value): value.serializedString
        case .map(let members) where members.isEmpty: "{}"
        case .list(let items) where items.isEmpty: "[]"
        case .list(let items) where items.allSatisfy({ if case .scalar = $0 { true } else { false } }):
            "[" + items.compactMap(\.inline).joined(separator: ", ") + "]"
        default: nil
        }
    }

    /// A key as YAML reads it: plain when it is a simple name, else quoted.
    private static func key(_ key: String) -> String {
        let plain = !key.isEmpty && key.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
        let letterFirst = key.first.map { $0.isLetter || $0 == "_" } ?? false
        return plain && letterFirst && !["true", "false", "null", "yes", "no", "on", "off", "y", "n"].contains(key.lowercased())
            ? key : JSONValue.string(key).serializedString
    }
}
