/// How much text a field may hold, counted three ways: characters as a person sees them, UTF-8
/// bytes, and combining marks on one character. Counting characters alone is not a size limit:
/// `"Z"` followed by 32,000 combining accents is one character of 64,001 bytes.
///
/// `violation(in:)` checks what a person types; `trimmed(_:)` cuts stored text (written before a
/// limit existed, or behind the app's back) to the limit before a screen shows it.
public struct TextLimit: Sendable, Hashable {
    /// How many characters (grapheme clusters) the text may have.
    public let characters: ClosedRange<Int>
    /// UTF-8 bytes the text may take at most.
    public let maxBytes: Int
    /// Combining marks (accents and the like) one character may carry at most.
    public let maxMarksPerCharacter: Int

    /// Marks one character may carry unless a limit says otherwise: enough for every accent a
    /// keyboard types (Vietnamese stacks two; Devanagari and Tibetan clusters up to four), not
    /// for accents piled up the screen.
    public static let defaultMarksPerCharacter = 4

    /// A limit of `characters`, with `maxBytes` (by default four bytes a character: every script's
    /// letters, and emoji, fit) and `maxMarksPerCharacter`.
    public init(characters: ClosedRange<Int>, maxBytes: Int? = nil, maxMarksPerCharacter: Int = defaultMarksPerCharacter) {
        self.characters = characters
        self.maxBytes = maxBytes ?? 4 * characters.upperBound
        self.maxMarksPerCharacter = maxMarksPerCharacter
    }

    /// What is wrong with a text.
    public enum Violation: Sendable, Hashable {
        /// Fewer or more characters than allowed, or more bytes.
        case length
        /// A character carries more combining marks than allowed.
        case marks
    }

    /// Why `text` breaks this limit, or nil when it does not.
    public func violation(in text: String) -> Violation? {
        // Bytes first: they bound the work of counting characters and marks.
        guard text.utf8.count <= maxBytes else { return .length }
        var count = 0
        for character in text {
            count += 1
            if Self.marks(in: character) > maxMarksPerCharacter { return .marks }
        }
        return characters.contains(count) ? nil : .length
    }

    /// `text` cut to at most `characters.upperBound` characters and `maxBytes` bytes, each
    /// character keeping at most `maxMarksPerCharacter` marks; text that lost characters ends in `…`.
    public func trimmed(_ text: String) -> String {
        if fitsAtAGlance(text) { return text }
        var kept: [[Unicode.Scalar]] = []
        var bytes = 0
        var whole = true
        for character in text {
            let scalars = capped(character)
            let size = scalars.reduce(0) { $0 + UTF8.width($1) }
            guard kept.count < characters.upperBound, bytes + size <= maxBytes else {
                whole = false
                break
            }
            kept.append(scalars)
            bytes += size
        }
        if !whole {
            // Make room for the ellipsis: one character, three bytes.
            while let last = kept.last, kept.count + 1 > characters.upperBound || bytes + 3 > maxBytes {
                bytes -= last.reduce(0) { $0 + UTF8.width($1) }
                kept.removeLast()
            }
        }
        var result = String.UnicodeScalarView()
        for scalars in kept { result.append(contentsOf: scalars) }
        return whole ? String(result) : String(result) + "…"
    }

    /// True when `text` is certainly within the limit, decided without breaking it into
    /// characters: few enough bytes and scalars, and no combining mark at all.
    private func fitsAtAGlance(_ text: String) -> Bool {
        let bytes = text.utf8.count
        guard bytes <= maxBytes else { return false }
        // No more bytes than characters allowed (so no more scalars either), and no byte that
        // starts a scalar at U+0300 or above (lead byte 0xCC or more): no mark. Most stored text
        // is decided here, a byte at a time, without decoding a scalar.
        if bytes <= characters.upperBound,
            text.utf8.withContiguousStorageIfAvailable({ !$0.contains { $0 >= 0xCC } }) == true
        {
            return true
        }
        var scalars = 0
        for scalar in text.unicodeScalars {
            scalars += 1
            // Nothing below U+0300 (where the combining diacritics begin) is a mark.
            if scalars > characters.upperBound || (scalar.value >= 0x300 && scalar.isCombiningMark) { return false }
        }
        return true
    }

    /// The scalars of `character` with marks past the cap dropped.
    private func capped(_ character: Character) -> [Unicode.Scalar] {
        var marks = 0
        return character.unicodeScalars.filter { scalar in
            guard scalar.isCombiningMark else { return true }
            marks += 1
            return marks <= maxMarksPerCharacter
        }
    }

    private static func marks(in character: Character) -> Int {
        var count = 0
        for scalar in character.unicodeScalars where scalar.isCombiningMark { count += 1 }
        return count
    }
}

extension Unicode.Scalar {
    /// A mark that combines with the character before it (general categories Mn, Mc, Me).
    var isCombiningMark: Bool {
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}
