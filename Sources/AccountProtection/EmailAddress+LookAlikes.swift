extension EmailAddress {
    /// Letters of other scripts (and symbols) that render like a Latin letter, and that letter:
    /// a subset of Unicode's confusables (UTS #39, `confusables.txt`), chosen by hand and tested
    /// (`EmailKeyTests`), covering the families seen in attacks: Cyrillic, Greek, Armenian,
    /// Coptic, Cherokee, Lisu, Canadian syllabics, Latin small capitals and letters with a
    /// stroke, APL symbols. Sources are as they appear after NFKD and case folding (lower case;
    /// Cherokee in both cases, as folding differs between Unicode versions), except for the few
    /// that normalising would turn into something else (lunate sigma Ϲ ϲ); compatibility
    /// forms (fullwidth, mathematical, circled, superscript letters) need no entry: NFKD maps
    /// them. ASCII is never mapped: `rn@` and `m@`, `l1@` and `ll@` stay different addresses.
    static let lookAlikes: [Unicode.Scalar: Unicode.Scalar] = {
        var pairs: [(UInt32, Character)] = [
            // Cyrillic
            (0x0430, "a"), (0x0441, "c"), (0x0501, "d"), (0x0435, "e"), (0x04BB, "h"), (0x0456, "i"), (0x0458, "j"),
            (0x04CF, "l"), (0x043E, "o"), (0x0440, "p"), (0x051B, "q"), (0x0455, "s"), (0x0443, "y"), (0x0445, "x"),
            (0x051D, "w"), (0x04AF, "y"), (0x0475, "v"),
            // Greek
            (0x03B1, "a"), (0x03B3, "y"), (0x03B5, "e"), (0x03F5, "e"), (0x03B7, "n"), (0x03B9, "i"), (0x03BA, "k"),
            (0x03BD, "v"), (0x03BF, "o"), (0x03C1, "p"), (0x03F1, "p"), (0x03C4, "t"), (0x03C5, "u"), (0x03C7, "x"),
            (0x03C9, "w"), (0x03F2, "c"), (0x03F9, "c"), (0x03F3, "j"),
            // Armenian
            (0x0578, "n"), (0x057D, "u"), (0x0585, "o"), (0x0581, "g"), (0x0566, "q"), (0x0570, "h"),
            // Latin: IPA letters, small capitals, letters with a stroke
            (0x0131, "i"), (0x0269, "i"), (0x026A, "i"), (0x0268, "i"), (0x0237, "j"), (0x0261, "g"), (0x0262, "g"),
            (0x01E5, "g"), (0x0251, "a"), (0x025B, "e"), (0x028F, "y"), (0x0299, "b"), (0x0180, "b"), (0x029C, "h"),
            (0x0127, "h"), (0x029F, "l"), (0x0142, "l"), (0x01C0, "l"), (0x0274, "n"), (0x0280, "r"), (0x0138, "k"),
            (0x00F8, "o"), (0x0111, "d"), (0x0167, "t"), (0x1D00, "a"), (0x1D04, "c"), (0x1D05, "d"), (0x1D07, "e"),
            (0x1D0A, "j"), (0x1D0B, "k"), (0x1D0D, "m"), (0x1D0F, "o"), (0x1D18, "p"), (0x1D1B, "t"), (0x1D1C, "u"),
            (0x1D20, "v"), (0x1D21, "w"), (0x1D22, "z"), (0xA730, "f"), (0xA731, "s"), (0xA7AF, "q"), (0x212E, "e"),
            // Coptic
            (0x2C81, "a"), (0x2C85, "r"), (0x2C89, "e"), (0x2C93, "i"), (0x2C95, "k"), (0x2C99, "m"), (0x2C9B, "n"),
            (0x2C9F, "o"), (0x2CA3, "p"), (0x2CA5, "c"), (0x2CA7, "t"), (0x2CA9, "y"), (0x2CAD, "x"), (0x2CB1, "w"),
            // APL symbols
            (0x237A, "a"), (0x2373, "i"), (0x2374, "p"), (0x2375, "w"),
            // Canadian syllabics
            (0x146F, "d"), (0x1472, "b"), (0x146B, "q"), (0x146D, "p"), (0x148D, "j"), (0x14AA, "l"), (0x142F, "v"),
            (0x144C, "u"), (0x144E, "n"), (0x1455, "c"), (0x1515, "s"), (0x1541, "x"), (0x157C, "h"), (0x1587, "r"),
            (0x15B4, "f"), (0x15C5, "a"), (0x15E9, "a"), (0x15EA, "d"), (0x15EF, "w"), (0x15F0, "m"), (0x15F4, "e"),
            (0x15F7, "b"), (0x166D, "x"),
            // Lisu
            (0xA4D0, "b"), (0xA4D1, "p"), (0xA4D3, "d"), (0xA4D4, "t"), (0xA4D6, "g"), (0xA4D7, "k"), (0xA4D9, "j"),
            (0xA4DA, "c"), (0xA4DC, "z"), (0xA4DD, "f"), (0xA4DF, "m"), (0xA4E0, "n"), (0xA4E1, "l"), (0xA4E2, "s"),
            (0xA4E3, "r"), (0xA4E6, "v"), (0xA4E7, "h"), (0xA4EA, "w"), (0xA4EB, "x"), (0xA4EC, "y"), (0xA4EE, "a"),
            (0xA4F0, "e"), (0xA4F2, "i"), (0xA4F3, "o"), (0xA4F4, "u"),
        ]
        // Cherokee, by its capital letters; their lower-case forms are added below.
        let cherokee: [(UInt32, Character)] = [
            (0x13AA, "a"), (0x13F4, "b"), (0x13DF, "c"), (0x13A0, "d"), (0x13AC, "e"), (0x13C0, "g"), (0x13BB, "h"),
            (0x13A5, "i"), (0x13AB, "j"), (0x13E6, "k"), (0x13DE, "l"), (0x13B7, "m"), (0x13E2, "p"), (0x13D2, "r"),
            (0x13DA, "s"), (0x13A2, "t"), (0x13D9, "v"), (0x13B3, "w"), (0x13C3, "z"),
        ]
        for (capital, latin) in cherokee {
            // U+13A0…U+13EF have their small letters at U+AB70…; U+13F0…U+13F5 at U+13F8….
            pairs += [(capital, latin), (capital < 0x13F0 ? capital - 0x13A0 + 0xAB70 : capital + 8, latin)]
        }
        return Dictionary(
            uniqueKeysWithValues: pairs.map { (Unicode.Scalar($0.0)!, $0.1.unicodeScalars.first!) })
    }()
}
