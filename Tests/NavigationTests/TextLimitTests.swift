import Navigation
import Testing

/// Text limits count characters, bytes and combining marks; trimming keeps stored text within them.
@Suite struct TextLimitTests {
    static let name = TextLimit(characters: 1...50)

    @Test func charactersBytesAndMarksAreEachLimited() {
        #expect(Self.name.maxBytes == 200)
        #expect(Self.name.violation(in: "Ada Lovelace") == nil)
        #expect(Self.name.violation(in: "") == .length)
        #expect(Self.name.violation(in: String(repeating: "a", count: 51)) == .length)
        // One character as a person counts it, 64,001 bytes.
        let zalgo = "Z" + String(repeating: "\u{301}", count: 32_000)
        #expect(zalgo.count == 1)
        #expect(Self.name.violation(in: zalgo) == .length)
        #expect(Self.name.violation(in: "Z" + String(repeating: "\u{301}", count: 5)) == .marks)
        // Accents as keyboards type them: Vietnamese stacks two, decomposed or not; Devanagari conjuncts.
        #expect(Self.name.violation(in: "Nguye\u{302}\u{303}n") == nil)
        #expect(Self.name.violation(in: "Nguyễn") == nil)
        #expect(Self.name.violation(in: "स्त्रिं") == nil)
        // 50 characters of four bytes fit; 50 of five do not.
        #expect(Self.name.violation(in: String(repeating: "😀", count: 50)) == nil)
        #expect(Self.name.violation(in: String(repeating: "e\u{301}\u{301}", count: 50)) == .length)
    }

    @Test func trimmingKeepsTextWithinTheLimit() {
        #expect(Self.name.trimmed("Ada") == "Ada")
        // Short text is decided by its bytes: letters below U+0300 pass as they are, while a
        // character carrying too many marks, however short the text, loses the marks past the cap.
        #expect(Self.name.trimmed("Zoë Ærø ß") == "Zoë Ærø ß")
        let piled = "e" + String(repeating: "\u{301}", count: 9) + "!"
        #expect(Array(Self.name.trimmed(piled).unicodeScalars) == Array(("e" + String(repeating: "\u{301}", count: 4) + "!").unicodeScalars))
        let long = String(repeating: "abc ", count: 30)
        let cut = Self.name.trimmed(long)
        #expect(cut.count == 50)
        #expect(cut.hasSuffix("…"))
        #expect(long.hasPrefix(String(cut.dropLast())))

        let zalgo = "Z" + String(repeating: "\u{301}", count: 32_000) + "ed"
        let tamed = Self.name.trimmed(zalgo)
        #expect(Array(tamed.unicodeScalars) == Array(("Z" + String(repeating: "\u{301}", count: 4) + "ed").unicodeScalars))

        let wide = String(repeating: "😀", count: 80)
        let trimmed = Self.name.trimmed(wide)
        #expect(trimmed.utf8.count <= 200)
        #expect(trimmed == String(repeating: "😀", count: 49) + "…")

        // A single character past the byte limit leaves only the ellipsis.
        let hangul = String(repeating: "\u{1100}", count: 300)
        #expect(hangul.count == 1)
        #expect(Self.name.trimmed(hangul) == "…")
        for text in [long, zalgo, wide, hangul, "e" + String(repeating: "\u{301}", count: 9)] {
            #expect(Self.name.violation(in: Self.name.trimmed(text)) == nil, "\(text.unicodeScalars.count) scalars")
        }
    }
}
