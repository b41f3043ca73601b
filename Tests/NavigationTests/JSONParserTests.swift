import Foundation
import CoordinatorJSON
import Navigation
import Testing

@Suite struct JSONParserTests {
    @Test(arguments: [
        #"{"a":1,"b":[true,false,null],"c":{"d":"e"},"f":-2.5e3,"g":0,"h":"\u00e9\ud83d\ude00\n\"\\\/"}"#,
        #"  [ 1 , 2.0 , -0 , 1E2, "x" ]  "#, #""plain""#, "123", "null", "[]", "{}", #"{"":[{}]}"#,
    ])
    func agreesWithFoundation(_ text: String) throws {
        let ours = try JSONValue.parse(Array(text.utf8))
        let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(ours == foundation || ours.serialized() == foundation.serialized())
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "{\"a\":}", "{\"a\" 1}", "01", "1.", "-", "1e", "tru", "nul", "\"abc", "\"\u{1}\"",
        #""\x""#, #""\ud800""#, "[1] 2", "{'a':1}", "NaN", "1e999", #"{"a":1,"a":2}"#,
    ])
    func rejectsInvalidJSON(_ text: String) {
        #expect(throws: (any Error).self) { try JSONValue.parse(Array(text.utf8)) }
    }

    @Test func readsStringsWithAndWithoutEscapesAndRefusesInvalidUTF8() throws {
        #expect(try JSONValue.parse(Array(#"["plain","é","a\nb","\u00e9x",""]"#.utf8)) == ["plain", "é", "a\nb", "éx", ""])
        // Bytes that are not UTF-8, in a string without escapes and in one with.
        for bytes: [UInt8] in [[34, 0xFF, 34], [34, 0xC3, 34], [34, 92, 110, 0xFF, 34], [34, 0xC3, 92, 110, 34]] {
            #expect(throws: (any Error).self) { try JSONValue.parse(bytes) }
        }
    }

    @Test func refusesDeepNesting() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: (any Error).self) { try JSONValue.parse(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(throws: Never.self) { try JSONValue.parse(Array(fine.utf8)) }
    }

    /// `parseObject` accepts exactly the objects `parse` does, and hands over their members.
    @Test(arguments: [
        #"{"a":1,"b":[true,false,null],"c":{"d":"e"},"f":-2.5e3}"#, "{}", #"  {"":[{}]}  "#,
        // Nine and more keys: past the first eight, keys are hashed.
        #"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10}"#,
    ])
    func membersAreTheObjectsMembers(_ text: String) throws {
        var members: [(String, JSONValue)] = []
        try JSONParser.parseObject(Array(text.utf8)) { members.append(($0, $1)) }
        #expect(JSONValue.object(Dictionary(uniqueKeysWithValues: members)) == (try JSONValue.parse(Array(text.utf8))))
    }

    @Test func membersComeInTheBodysOrder() throws {
        var keys: [String] = []
        try JSONParser.parseObject(Array(#"{"z":1,"a":{"y":2},"m":[3]}"#.utf8)) { key, _ in keys.append(key) }
        #expect(keys == ["z", "a", "m"])
    }

    @Test(arguments: [
        "", "[1]", #""a""#, "1", "null", "{", #"{"a":1} x"#, #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#,
        #"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k9":10}"#,
        #"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k1":10}"#,
        #"{"a":[1,]}"#, #"{"a":{"b":1,"b":2}}"#,
    ])
    func membersRefuseWhatIsNoObject(_ text: String) {
        #expect(throws: (any Error).self) { try JSONParser.parseObject(Array(text.utf8)) { _, _ in } }
    }
}
