import Foundation
import Navigation

/// E-mail addresses as an app stores and compares them.
///
/// An address is stored as typed, in NFC. Two addresses are the same account when their `key`s
/// are equal. The key treats as one what a person cannot tell apart:
/// - canonical and compatibility forms (NFD and NFC, fullwidth, ligatures, mathematical letters:
///   NFKD, then NFKC);
/// - case (case folding);
/// - accents on Latin, Greek and Cyrillic letters and the scripts that look like them: a dot or
///   an accent is easily missed, so `ȧda@`, `ádá@` and `ada@` are one account (the price: `josé@`
///   and `jose@` are one account too). Scripts that write vowels and tones as marks (Hebrew,
///   Arabic, the Indic scripts, Thai, kana's voicing marks, …) keep them;
/// - letters of other scripts that look like Latin ones (`EmailAddress.lookAlikes`: Cyrillic а,
///   small capital ᴀ, Coptic ⲁ, APL ⍺, Canadian syllabics ᑯ, …);
/// - characters that show nothing (`TextRule.isHidden`: the blank Braille pattern, Hangul fillers,
///   zero-width and format characters), which are dropped.
///
/// Declare e-mail fields as identifiers (`TextRule`), which refuse hidden characters with `422`,
/// and refuse addresses with `hasStrayMarks` (accents left over after NFC on letters that do not
/// keep them). The key still handles both, for sign-in and for addresses stored before such rules.
/// An app that stores keys recomputes them when this function changes (as the sample app's
/// `EmailKeyUpgrade` does). `EmailBounds` bounds an address and its key.
public enum EmailAddress {
    /// How an address is stored and shown back: trimmed, NFC.
    public static func normalized(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
    }

    /// The comparison key of an address: equal keys, same account.
    public static func key(_ address: String) -> String {
        // Look-alikes are mapped before normalising too: NFKC and case folding turn some of them
        // (Greek lunate sigma ϲ, which is c) into letters that no longer look Latin (σ).
        var mapped = String.UnicodeScalarView()
        for scalar in address.unicodeScalars { mapped.append(lookAlikes[scalar] ?? scalar) }
        let decomposed = String(mapped).precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: nil).decomposedStringWithCompatibilityMapping
        var key = String.UnicodeScalarView()
        var baseKeepsMarks = false
        for scalar in decomposed.unicodeScalars where !TextRule.isHidden(scalar) {
            if isMark(scalar) {
                if baseKeepsMarks { key.append(scalar) }
            } else if let latin = lookAlikes[scalar] {
                key.append(latin)
                baseKeepsMarks = false
            } else {
                key.append(scalar)
                baseKeepsMarks = keepsMarks(scalar)
            }
        }
        return String(key).precomposedStringWithCompatibilityMapping
    }

    /// True when `address` (in NFC) carries a combining mark that no keyboard types: on a letter
    /// of a script whose accented letters all have a precomposed form (Latin, Greek, Cyrillic and
    /// their look-alikes), on something that is not a letter, or more than
    /// `TextLimit.defaultMarksPerCharacter` of them on one character.
    public static func hasStrayMarks(_ address: String) -> Bool {
        var baseKeepsMarks = false
        var marks = 0
        for scalar in address.unicodeScalars {
            if isMark(scalar) {
                marks += 1
                if !baseKeepsMarks || marks > TextLimit.defaultMarksPerCharacter { return true }
            } else {
                baseKeepsMarks = keepsMarks(scalar)
                marks = 0
            }
        }
        return false
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// True for a letter of a script that writes with combining marks: at or above Hebrew
    /// (U+0590), and not one of the blocks of Latin, Greek, Cyrillic or their look-alikes.
    private static func keepsMarks(_ base: Unicode.Scalar) -> Bool {
        guard base.value >= 0x0590, base.properties.isAlphabetic else { return false }
        return !latinLooking.contains { $0.contains(base.value) }
    }

    /// Blocks above U+0590 whose letters are Latin, Greek or Cyrillic, or look like them.
    private static let latinLooking: [ClosedRange<UInt32>] = [
        0x13A0...0x13FF,  // Cherokee
        0x1400...0x167F,  // Unified Canadian Aboriginal Syllabics
        0x1C80...0x1C8F,  // Cyrillic Extended-C
        0x1D00...0x1DBF,  // Phonetic Extensions (small capitals, …)
        0x1E00...0x1FFF,  // Latin Extended Additional, Greek Extended
        0x2C60...0x2CFF,  // Latin Extended-C, Coptic
        0x2DE0...0x2DFF,  // Cyrillic Extended-A
        0xA4D0...0xA4FF,  // Lisu
        0xA640...0xA69F,  // Cyrillic Extended-B
        0xA720...0xA7FF,  // Latin Extended-D
        0xAB30...0xABBF,  // Latin Extended-E, Cherokee Supplement
        0xFF00...0xFFEF,  // Halfwidth and Fullwidth Forms
        0x10780...0x107BF,  // Latin Extended-F
        0x1D400...0x1D7FF,  // Mathematical Alphanumeric Symbols
        0x1DF00...0x1DFFF,  // Latin Extended-G
    ]
}
