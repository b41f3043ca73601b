import Foundation

/// A coordinator state field that holds a secret or something derived from one (a password's
/// hash between registration steps, a one-time code): kept in the session's stored snapshot, which
/// the flow needs, but never in its journal, whose copies outlive the session and a password change.
///
/// ```swift
/// struct RegistrationCoordinator: Coordinator {
///     @Confidential var passwordHash: String?
/// }
/// ```
///
/// In a snapshot a value is written as `{"$confidential": value}` (and no value as null); the journal keeps
/// `{"$confidential": null}` in its place (`Confidential.redacted(_:)`), so a past State read from
/// the journal, or a replay from it, sees the field empty.
@propertyWrapper
public struct Confidential<Value: Codable & Sendable & Hashable>: Sendable, Hashable {
    /// The secret.
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
}

extension Confidential: Codable {
    private struct MarkerKey: CodingKey {
        var stringValue: String { Confidential.markerKey }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { guard stringValue == Confidential.markerKey else { return nil } }
        init?(intValue: Int) { nil }
    }

    /// The member a confidential value is written under.
    public static var markerKey: String { "$confidential" }

    public func encode(to encoder: any Encoder) throws {
        // Nothing to hide is written as null: only a snapshot that holds a secret costs the
        // journal a snapshot in full (`ConfidentialRedaction`).
        guard let wrappedValue else {
            var container = encoder.singleValueContainer()
            return try container.encodeNil()
        }
        var container = encoder.container(keyedBy: MarkerKey.self)
        try container.encode(wrappedValue, forKey: MarkerKey())
    }

    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: MarkerKey.self), container.contains(MarkerKey()) {
            wrappedValue = try container.decodeIfPresent(Value.self, forKey: MarkerKey())
        } else {
            // A snapshot from before the field was marked holds the value itself (or nothing).
            let container = try decoder.singleValueContainer()
            wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
        }
    }
}

extension KeyedDecodingContainer {
    /// A `@Confidential` field missing from a snapshot decodes as empty.
    public func decode<Value>(_ type: Confidential<Value>.Type, forKey key: Key) throws -> Confidential<Value> {
        try decodeIfPresent(type, forKey: key) ?? Confidential(wrappedValue: nil)
    }
}

extension Array where Element == UInt8 {
    /// True when `needle` (not empty) occurs in these bytes. (glibc's `memmem` is a GNU extension
    /// Swift does not import here.) Candidates are found with `memchr` (vectorized) on the
    /// needle's second byte, then compared whole: the confidential marker starts with a quote,
    /// which JSON is full of, and its second byte (`$`) is rare. Each event's journal entry
    /// searches its snapshot twice, so a byte-by-byte scan cost about 3 % of an event.
    package func containsBytes(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        let anchor = needle.count > 1 ? 1 : 0
        return withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { needle in
                guard let base = haystack.baseAddress, let wanted = needle.baseAddress else { return false }
                // The anchor byte of a match lies in [anchor, count - needle.count + anchor].
                var from = base + anchor
                let end = base + (haystack.count - needle.count + anchor + 1)
                while from < end {
                    guard let hit = memchr(from, Int32(wanted[anchor]), end - from) else { return false }
                    let at = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(at - anchor, wanted, needle.count) == 0 { return true }
                    from = at + 1
                }
                return false
            }
        }
    }
}

/// Removing confidential values from a snapshot's JSON, for the journal.
public enum ConfidentialRedaction {
    /// True when `json` may hold a confidential value (a quick byte search, no parse).
    public static func mayHoldSecrets(_ json: [UInt8]) -> Bool { json.containsBytes(marker) }

    private static let marker = Array("\"\(Confidential<String>.markerKey)\"".utf8)

    /// `json` with every confidential value replaced by null; `json` itself when it holds none
    /// or does not parse.
    public static func redacted(_ json: [UInt8]) -> [UInt8] {
        guard mayHoldSecrets(json), let value = try? JSONValue.parse(json) else { return json }
        return Array(redacting(value).serialized())
    }

    private static func redacting(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            if members.count == 1, members[Confidential<String>.markerKey] != nil {
                return .object([Confidential<String>.markerKey: .null])
            }
            return .object(members.mapValues(redacting))
        case .array(let elements): return .array(elements.map(redacting))
        default: return value
        }
    }
}
