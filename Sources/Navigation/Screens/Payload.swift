import Foundation

/// An event's payload, validated against its declaration: every declared field present
/// (unless optional) and of its declared type, nothing undeclared. The typed accessors
/// therefore cannot fail for a declared field.
public struct Payload: Sendable, Hashable {
    /// The payload's fields, validated.
    public let values: [String: JSONValue]

    /// A payload of `values`.
    public init(_ values: [String: JSONValue] = [:]) {
        self.values = values
    }

    /// The string field `name`; empty when absent.
    public func string(_ name: String) -> String { values[name]?.stringValue ?? "" }
    /// The string field `name`, if present.
    public func optionalString(_ name: String) -> String? { values[name]?.stringValue }
    /// The integer field `name`; 0 when absent.
    public func int(_ name: String) -> Int { values[name]?.intValue ?? 0 }
    /// The integer field `name`, if present.
    public func optionalInt(_ name: String) -> Int? { values[name]?.intValue }
    /// The number field `name`; 0 when absent.
    public func double(_ name: String) -> Double {
        switch values[name] {
        case .int(let int): Double(int)
        case .double(let double): double
        default: 0
        }
    }
    /// The date-time field `name`, if present.
    public func date(_ name: String) -> Date? { values[name]?.stringValue.flatMap(RFC3339.date(from:)) }
    /// The boolean field `name`; false when absent.
    public func bool(_ name: String) -> Bool { values[name]?.boolValue ?? false }
    /// The raw field `name`.
    public subscript(name: String) -> JSONValue? { values[name] }

    /// Checks `raw` against `declaration`; returns the payload or every field error at once.
    static func validate(_ raw: JSONValue, against declaration: EventDeclaration) -> Result<Payload, EventRejection> {
        let members: [String: JSONValue]
        switch raw {
        case .null: members = [:]
        case .object(let object): members = object
        default:
            return .failure(.invalidPayload([FieldError(field: "payload", message: "must be a JSON object")]))
        }
        var errors: [FieldError] = []
        for field in declaration.fields {
            guard let value = members[field.name], value != .null else {
                if !field.optional { errors.append(FieldError(field: field.name, message: "is required")) }
                continue
            }
            if !Self.value(value, matches: field.type) {
                errors.append(FieldError(field: field.name, message: "must be \(Self.describe(field.type))"))
            } else if let text = value.stringValue, let message = field.text.violation(in: text) {
                errors.append(FieldError(field: field.name, message: message))
            }
        }
        let declared = Set(declaration.fields.map(\.name))
        for name in members.keys.sorted() where !declared.contains(name) {
            errors.append(FieldError(field: name, message: "is not a field of \(declaration.name)"))
        }
        return errors.isEmpty ? .success(Payload(members.filter { $0.value != .null })) : .failure(.invalidPayload(errors))
    }

    private static func value(_ value: JSONValue, matches type: FieldType) -> Bool {
        switch (type, value) {
        case (.string, .string), (.password, .string), (.boolean, .bool), (.object, .object), (.array, .array): true
        case (.integer, _): value.intValue != nil
        case (.number, .int), (.number, .double): true
        case (.dateTime, .string(let text)): RFC3339.date(from: text) != nil
        case (.url, .string(let text)): URL(string: text)?.scheme != nil
        default: false
        }
    }

    private static func describe(_ type: FieldType) -> String {
        switch type {
        case .string, .password: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .dateTime: "a date and time in RFC 3339 form, like 2026-11-23T13:46:40Z"
        case .boolean: "a boolean"
        case .object: "an object"
        case .array: "an array"
        case .url: "an absolute URL, like https://example.com/a.png"
        }
    }
}

/// What is wrong with one field of a payload.
public struct FieldError: Sendable, Hashable, Codable {
    /// The field's name (`email`), or `payload`, `event`, `screen`.
    public let field: String
    /// What is wrong with it (`is required`).
    public let message: String

    /// The error `message` for `field`.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}
