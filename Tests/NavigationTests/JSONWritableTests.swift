import Foundation
import NavigationMacros
import Testing

@testable import Navigation

/// `@JSONWritable` writes exactly the bytes of the `Codable` path it replaces: through
/// `JSONValue.serialize` for any value, and as a screen's props (`ScreenType.json`, every field
/// present) for props; and fails where that path fails.
@Suite struct JSONWritableTests {
    enum Mood: String, Codable, JSONWritable {
        case calm
        case weird = "we\"ird"
    }

    /// A wrapper that encodes itself as an object: the storage, not the wrapped value, is written.
    @propertyWrapper struct Tagged: Codable, Hashable {
        var wrappedValue: String
        var tag = "t"
    }

    /// Only `Codable`: written through it, inside a writable struct.
    struct Legacy: Codable {
        var zeta: Int
        var alpha: String?
    }

    @JSONWritable
    struct Author: Codable {
        var id: Int
        var displayName: String
        var nickname: String?
    }

    @JSONWritable
    struct Everything: Codable {
        var text: String
        var flag: Bool
        var count: Int
        var small: Int8
        var wide: UInt64
        var ratio: Double
        var single: Float
        var price: Decimal
        var when: Date
        var blob: Data
        var link: URL
        var author: Author
        var authors: [Author]
        var maybeAuthor: Author?
        var nested: [[Int?]]
        var byName: [String: Author]
        var legacy: Legacy
        var legacies: [Legacy]?
        var note: String?
        var doubleOptional: Int??
        var json: JSONValue
        @Tagged var label: String
        var `default`: Int?
        // Last: the schema reader's placeholders (an empty UUID, an empty raw value) stop the
        // fields after them.
        var uuid: UUID
        var mood: Mood
    }

    enum EverythingScreen: ScreenType {
        static let name = "everything"
        typealias Props = Everything
    }

    /// Strings with what JSON escapes, and what it does not.
    static func text(_ random: inout some RandomNumberGenerator) -> String {
        let pieces = ["a", "Zoë", "\"", "\\", "\n", "\t", "\r", "\u{1}", "\u{1F}", "/", "😀", "é", " ", "<>"]
        return (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func author(_ random: inout some RandomNumberGenerator) -> Author {
        Author(
            id: Int.random(in: -1000...1000, using: &random), displayName: text(&random),
            nickname: Bool.random(using: &random) ? text(&random) : nil)
    }

    static func everything(_ random: inout some RandomNumberGenerator) -> Everything {
        func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &random) ? make() : nil }
        let doubles: [Double] = [0, -0.5, 1e15, 1e300, 3.25, -7, .random(in: -1e6...1e6, using: &random)]
        var value = Everything(
            text: text(&random), flag: .random(using: &random), count: [Int.min, Int.max, -3, 0, 42].randomElement(using: &random)!,
            small: .random(in: .min ... .max, using: &random), wide: [UInt64.max, 7, 0].randomElement(using: &random)!,
            ratio: doubles.randomElement(using: &random)!, single: [0.1, -2.5, 1e10].randomElement(using: &random)!,
            price: [Decimal(string: "12.34")!, Decimal(7)].randomElement(using: &random)!,
            when: Date(timeIntervalSince1970: .random(in: -62_000_000_000...250_000_000_000, using: &random)),
            blob: Data((0..<Int.random(in: 0...9, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }),
            link: URL(string: "https://example.com/a?b=\(Int.random(in: 0...9, using: &random))")!,
            author: author(&random),
            authors: (0..<Int.random(in: 0...3, using: &random)).map { _ in author(&random) }, maybeAuthor: nil,
            nested: [[1, nil], [], [3]], byName: [:], legacy: Legacy(zeta: 1, alpha: nil), legacies: nil, note: nil,
            doubleOptional: nil, json: .object(["b": .array([.int(1), .null]), "a": .string("x\"y")]), label: text(&random),
            default: nil, uuid: UUID(), mood: [.calm, .weird].randomElement(using: &random)!)
        value.maybeAuthor = maybe { author(&random) }
        value.byName = Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...3, using: &random)).map { ("k\($0)\(text(&random))", author(&random)) })
        value.legacy.alpha = maybe { text(&random) }
        value.legacies = maybe { [Legacy(zeta: 2, alpha: "x"), Legacy(zeta: 3, alpha: nil)] }
        value.note = maybe { text(&random) }
        value.doubleOptional = [nil, .some(nil), .some(5)].randomElement(using: &random)!
        value.default = maybe { 9 }
        return value
    }

    @Test func aValueIsWrittenAsItsCodableConformanceEncodesIt() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let value = Self.everything(&random)
            let written = String(decoding: try JSONValue.serialize(value), as: UTF8.self)
            // `JSONValue.encode` goes through `Encodable`, and never through `JSONWritable`.
            let encoded = String(decoding: try JSONValue.encode(value).serialized(), as: UTF8.self)
            #expect(written == encoded)
        }
    }

    @Test func propsAreWrittenWithEveryFieldAsTheCodablePathWritesThem() throws {
        var random = SystemRandomNumberGenerator()
        let fields = Schema.fields(of: Everything.self).map(\.name)
        // Every optional field is one the `Codable` path writes as `null` when nil.
        #expect(Set(["note", "default", "doubleOptional", "legacies", "maybeAuthor"]).isSubset(of: fields), "\(fields)")
        var sawNull = false
        for _ in 0..<300 {
            let props = Self.everything(&random)
            let written = String(decoding: try EverythingScreen.json(props), as: UTF8.self)
            let codable = String(decoding: try JSONValueEncoder().serialize(props, nullFields: fields), as: UTF8.self)
            #expect(written == codable)
            sawNull = sawNull || written.contains(#""note":null"#)
        }
        #expect(sawNull)
    }

    @Test func whatTheCodablePathRejectsIsRejected() throws {
        var random = SystemRandomNumberGenerator()
        var value = Self.everything(&random)
        value.ratio = .infinity
        #expect(throws: EncodingError.self) { try JSONValue.serialize(value) }
        #expect(throws: EncodingError.self) { try JSONValue.encode(value) }
        value.ratio = 1
        value.when = Date(timeIntervalSince1970: 1e12)  // after the year 9999
        #expect(throws: EncodingError.self) { try JSONValue.serialize(value) }
        #expect(throws: EncodingError.self) { try JSONValue.encode(value) }
    }
}
