import Foundation

/// E-mail addresses as the app stores and compares them.
///
/// An address is stored as typed, in NFC. Two addresses are the same account when their `key`s
/// are equal: the key is the NFKC form (fullwidth and other compatibility letters become plain
/// ones), case-folded, with the Cyrillic, Greek and other letters that look like Latin ones
/// mapped to those (a small UTS #39 skeleton). So `ada@example.com`, `ＡＤＡ@example.com` and
/// `ada@exаmple.com` (Cyrillic а) are one account: the later ones hear "already registered".
/// Invisible and bidi-control characters never get this far: the screens declare e-mail
/// fields as identifiers, which refuse them with `422`.
enum EmailAddress {
    /// How an address is stored and shown back: trimmed, NFC.
    static func normalized(_ raw: String) -> String {
        raw.trimmed.precomposedStringWithCanonicalMapping
    }

    /// The comparison key of an address: equal keys, same account.
    static func key(_ address: String) -> String {
        let folded = address.precomposedStringWithCompatibilityMapping.folding(options: [.caseInsensitive], locale: nil)
        var key = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            key.append(lookAlikes[scalar] ?? scalar)
        }
        return String(key).precomposedStringWithCompatibilityMapping
    }

    /// Lower-case letters of other scripts that render like a Latin letter, and that letter.
    private static let lookAlikes: [Unicode.Scalar: Unicode.Scalar] = {
        let pairs: [(String, Character)] = [
            // Cyrillic
            ("а", "a"), ("с", "c"), ("ԁ", "d"), ("е", "e"), ("һ", "h"), ("і", "i"), ("ј", "j"), ("ӏ", "l"),
            ("о", "o"), ("р", "p"), ("ԛ", "q"), ("ѕ", "s"), ("у", "y"), ("х", "x"), ("ԝ", "w"), ("ү", "y"),
            // Greek
            ("α", "a"), ("ε", "e"), ("ι", "i"), ("κ", "k"), ("ν", "v"), ("ο", "o"), ("ρ", "p"), ("τ", "t"),
            ("υ", "u"), ("χ", "x"), ("ϲ", "c"), ("ϳ", "j"),
            // Armenian and Latin extensions
            ("ո", "n"), ("ս", "u"), ("օ", "o"), ("ı", "i"), ("ɩ", "i"), ("ɡ", "g"), ("ɑ", "a"), ("ʏ", "y"),
        ]
        return Dictionary(
            uniqueKeysWithValues: pairs.map { ($0.0.unicodeScalars.first!, $0.1.unicodeScalars.first!) })
    }()
}
