extension TextRule {
    /// Why `text` breaks this rule, or nil when it does not.
    func violation(in text: String) -> String? {
        switch self {
        case .secret:
            return nil
        case .text:
            let refused = text.unicodeScalars.contains { scalar in
                scalar.properties.generalCategory == .control && !["\t", "\n", "\r"].contains(scalar)
            }
            return refused ? "must not contain control characters" : nil
        case .identifier:
            return text.unicodeScalars.contains(where: Self.isHidden)
                ? "must not contain control, invisible or bidirectional-control characters" : nil
        }
    }

    /// True for what an identifier refuses: control and format characters (zero-width, bidi
    /// embeddings and isolates, the BOM), line and paragraph separators, code points that render
    /// as nothing (the Hangul fillers among them), letters and symbols that render as a blank
    /// (the blank Braille pattern), and unassigned ones. A space is not hidden.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
            return true
        default:
            return scalar.properties.isDefaultIgnorableCodePoint || blankLooking.contains(scalar.value)
        }
    }

    /// Assigned, not default-ignorable, yet drawn as empty space: U+2800 BRAILLE PATTERN BLANK,
    /// U+1D159 MUSICAL SYMBOL NULL NOTEHEAD, U+13441 and U+13442 EGYPTIAN HIEROGLYPH FULL and
    /// HALF BLANK. (The Hangul fillers U+115F, U+1160, U+3164 and U+FFA0 are default-ignorable.)
    private static let blankLooking: Set<UInt32> = [0x2800, 0x1D159, 0x13441, 0x13442]
}
