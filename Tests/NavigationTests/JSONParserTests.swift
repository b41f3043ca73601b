import Foundation
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
}
