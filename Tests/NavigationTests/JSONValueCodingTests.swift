import Foundation
import Navigation
import Testing

/// `JSONValue.encode` and `JSONValue.decode` go straight between values and `JSONValue`; they must
/// agree with Foundation's `JSONEncoder` and `JSONDecoder` on every shape (default strategies,
/// but for dates: RFC 3339, as `.iso8601` writes them).
@Suite struct JSONValueCodingTests {
    enum Kind: String, Codable, Equatable { case plain, fancy }

    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case labelled(String, count: Int)
        case empty
    }

    struct Inner: Codable, Equatable {
        var name: String
        var tags: [String]
        var score: Double?
    }

    struct Everything: Codable, Equatable {
        var text = "héllo \"quoted\"\n\u{1}"
        var int = -42
        var small: Int8 = -8
        var big: Int64 = 9_007_199_254_740_993
        var byte: UInt8 = 255
        var unsigned: UInt32 = 4_000_000_000
        var fraction = 0.1
        var float: Float = 0.1
        var flag = true
        var missing: String? = nil
        var present: Int? = 7
        var kind = Kind.fancy
        var shapes: [Shape] = [.circle(radius: 1.5), .labelled("x", count: 2), .empty]
        var inner = Inner(name: "n", tags: ["a", "b"], score: nil)
        var nested: [[Int?]] = [[1, nil], [], [3]]
        var byName: [String: Int] = ["one": 1, "two": 2]
        var byNumber: [Int: String] = [1: "one", 20: "twenty"]
        var date = Date(timeIntervalSinceReferenceDate: 12_345)
        var data = Data([0, 1, 2, 250, 255])
        var url = URL(string: "https://example.com/a?b=c")!
        var json: JSONValue = ["free": [1, "form", nil]]
    }

    class Base: Codable {
        var baseValue = 1
    }

    final class Derived: Base {
        var derivedValue = "d"
        enum CodingKeys: String, CodingKey { case derivedValue }
        override init() { super.init() }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            derivedValue = try container.decode(String.self, forKey: .derivedValue)
            try super.init(from: container.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(derivedValue, forKey: .derivedValue)
            try super.encode(to: container.superEncoder())
        }
    }

    /// What Foundation makes of `value`, as a `JSONValue`.
    private func foundation(_ value: some Encodable) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try JSONValue.parse(Array(encoder.encode(value)))
    }

    @Test func encodesLikeJSONEncoder() throws {
        let value = Everything()
        #expect(try JSONValue.encode(value).serialized() == foundation(value).serialized())
        // Synthesized conformances leave a nil optional out, as with Foundation.
        #expect(try JSONValue.encode(value)["missing"] == nil)
        #expect(try JSONValue.encode(value)["present"] == 7)
        #expect(try JSONValue.encode(value)["float"] == .double(0.1))
    }

    @Test func decodesWhatEitherEncoderWrote() throws {
        let value = Everything()
        #expect(try JSONValue.decode(Everything.self, from: JSONValue.encode(value)) == value)
        #expect(try JSONValue.decode(Everything.self, from: foundation(value)) == value)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let viaFoundation = try decoder.decode(Everything.self, from: Data(JSONValue.encode(value).serialized()))
        #expect(viaFoundation == value)
    }

    @Test func superEncoderAndDecoderNestUnderSuper() throws {
        let encoded = try JSONValue.encode(Derived())
        #expect(encoded == ["derivedValue": "d", "super": ["baseValue": 1]])
        #expect(encoded.serialized() == (try foundation(Derived())).serialized())
        let decoded = try JSONValue.decode(Derived.self, from: ["derivedValue": "e", "super": ["baseValue": 5]])
        #expect(decoded.derivedValue == "e" && decoded.baseValue == 5)
    }

    /// Writes `first` then `second` under the same key, and a nested container filled after a
    /// later member: the last value set wins, as in a dictionary.
    struct Overwriting: Encodable {
        enum Key: String, CodingKey { case b, a, nested, C }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("first", forKey: .a)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .nested)
            var list = container.nestedUnkeyedContainer(forKey: .C)
            try container.encode(["z": 1, "y": 2], forKey: .b)
            try container.encode("second", forKey: .a)
            try nested.encode(2.5, forKey: .b)
            try list.encode(UInt64(7))
            try list.encodeNil()
            _ = container.superEncoder()  // encodes nothing: an empty object
        }
    }

    /// Props that are a single value rather than an object.
    struct Scalar: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode("just text")
        }
    }

    @Test func serializesStraightToTheCanonicalBytes() throws {
        func agree(_ value: some Encodable) throws {
            let bytes = try JSONValue.serialize(value)
            #expect(bytes == (try JSONValue.encode(value)).serialized())
            #expect(bytes == (try foundation(value)).serialized())
        }
        try agree(Everything())
        try agree(Derived())
        try agree([Everything(), Everything()])
        try agree(Scalar())
        try agree(["é": 1, "e\u{301}x": 2, "Z": 3, "a": 4])  // sorted as Swift orders strings
        try agree(Overwriting())
        #expect(
            String(decoding: try JSONValue.serialize(Overwriting()), as: UTF8.self)
                == #"{"C":[7,null],"a":"second","b":{"y":2,"z":1},"nested":{"b":2.5},"super":{}}"#)
    }

    @Test func refusesWhatJSONCannotHold() {
        #expect(throws: EncodingError.self) { try JSONValue.encode(["x": Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONValue.encode([Double.infinity]) }
        #expect(throws: EncodingError.self) { try JSONValue.encode(Float.infinity) }
        #expect(throws: EncodingError.self) { try JSONValue.serialize(["x": [Double.nan]]) }
    }

    @Test func refusesWhatDoesNotMatchTheType() {
        #expect(throws: DecodingError.self) { try JSONValue.decode(Inner.self, from: ["tags": []]) }  // no name
        #expect(throws: DecodingError.self) { try JSONValue.decode(Inner.self, from: ["name": 1, "tags": []]) }
        #expect(throws: DecodingError.self) { try JSONValue.decode(Int8.self, from: 300) }
        #expect(throws: DecodingError.self) { try JSONValue.decode(Int.self, from: 1.5) }
        #expect(throws: DecodingError.self) { try JSONValue.decode([Int].self, from: ["a": 1]) }
        #expect(throws: DecodingError.self) { try JSONValue.decode(Kind.self, from: "unknown") }
        #expect(throws: DecodingError.self) { try JSONValue.decode(Data.self, from: "not base64!") }
    }

    @Test func reportsWhereAMismatchIs() throws {
        do {
            _ = try JSONValue.decode([Inner].self, from: [["name": "a", "tags": []], ["name": "b", "tags": [1]]])
            Issue.record("decoded a number as a string")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["1", "tags", "0"])
        }
    }

    @Test func acceptsWholeNumbersWrittenWithAFraction() throws {
        #expect(try JSONValue.decode(Int.self, from: 3.0) == 3)
        #expect(try JSONValue.decode(Double.self, from: 3) == 3.0)
    }

    /// A State's layers and screens read by position: `state["stack"]?[0]?["screens"]`.
    @Test func anArrayIsReadByIndexAndAnythingElseGivesNil() {
        let value: JSONValue = ["stack": [["screens": ["first", "second"]]]]
        #expect(value["stack"]?[0]?["screens"]?[1] == "second")
        #expect(value["stack"]?[1] == nil)
        #expect(value["stack"]?[-1] == nil)
        #expect(value[0] == nil, "an object is not read by index")
    }
}
