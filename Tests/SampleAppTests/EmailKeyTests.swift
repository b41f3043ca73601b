import Foundation
import CoordinatorTesting
import Navigation
@testable import SampleApp
import Testing

/// `EmailAddress.key` as a function: what it takes for one, what it keeps apart.
@Suite struct EmailKeyTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func key(_ address: String) -> [UInt8] { bytes(EmailAddress.key(EmailAddress.normalized(address))) }

    /// Canonical equivalence: the NFD and the NFC form of every precomposed Latin, Greek and
    /// Cyrillic letter give one key (bytes compared: `String`'s `==` would hide a difference).
    @Test func decomposedAndComposedFormsHaveOneKey() {
        let letters = Array(0xC0...0x24F) + Array(0x370...0x4FF) + Array(0x1E00...0x1FFF)
        for value in letters {
            guard let scalar = Unicode.Scalar(UInt32(value)), scalar.properties.isAlphabetic else { continue }
            let composed = "x\(scalar)y@example.com".precomposedStringWithCanonicalMapping
            let decomposed = composed.decomposedStringWithCanonicalMapping
            #expect(Self.key(composed) == Self.key(decomposed), "U+\(String(value, radix: 16))")
            #expect(Self.bytes(EmailAddress.key(composed)) == Self.bytes(EmailAddress.key(decomposed)))
        }
    }

    /// A printable ASCII address's key is its lower case, as migration 0007 stored it: the
    /// upgrade of stored keys may skip those addresses.
    @Test func anASCIIAddressKeyIsItsLowerCase() {
        let printable = (0x20...0x7E).map { Character(Unicode.Scalar($0)!) }
        for character in printable {
            let address = "a\(character)b@Example.COM"
            #expect(EmailAddress.key(address) == address.lowercased(), "\(character)")
        }
        #expect(EmailAddress.key("rn@example.com") != EmailAddress.key("m@example.com"))
        #expect(EmailAddress.key("l1@example.com") != EmailAddress.key("ll@example.com"))
    }

    /// Every look-alike maps to its Latin letter, and keys are stable: the key of a key is itself.
    @Test func everyLookAlikeIsItsLatinLetter() {
        for (source, latin) in EmailAddress.lookAlikes {
            #expect(latin.isASCII && Character(latin).isLowercase)
            #expect(EmailAddress.key("x\(source)y@example.com") == "x\(latin)y@example.com", "U+\(String(source.value, radix: 16))")
        }
        let addresses = ["ᴀda@example.com", "ádá@ex.com", "ＡＤＡ@example.com", "नमस्ते@example.com", "がく@example.com", "Straße@x.de"]
        for address in addresses {
            let key = EmailAddress.key(address)
            #expect(Self.bytes(EmailAddress.key(key)) == Self.bytes(key), "\(address)")
        }
    }

    @Test func hiddenCharactersAreDroppedAndMarksOfOtherScriptsKept() {
        #expect(EmailAddress.key("ada\u{2800}@example.com") == "ada@example.com")
        #expect(EmailAddress.key("a\u{200B}da\u{3164}@example.com") == "ada@example.com")
        #expect(EmailAddress.key("i\u{0307}da@example.com") == "ida@example.com")
        #expect(EmailAddress.key("Straße@x.de") == "strasse@x.de")
        #expect(EmailAddress.key("नमस्ते@example.com") != EmailAddress.key("नमस्त@example.com"))
        #expect(EmailAddress.key("がく@example.com") != EmailAddress.key("かく@example.com"))
        #expect(Self.key("か\u{3099}く@example.com") == Self.key("がく@example.com"))
    }

    @Test func strayMarksAreThoseNoKeyboardTypes() {
        #expect(!EmailAddress.hasStrayMarks("ádá@example.com"))
        #expect(!EmailAddress.hasStrayMarks("नमस्ते@example.com"))
        #expect(EmailAddress.hasStrayMarks("i\u{0307}@example.com"))
        #expect(EmailAddress.hasStrayMarks("a@\u{0301}b.com"))
        #expect(EmailAddress.hasStrayMarks("न\u{94D}\u{94D}\u{94D}\u{94D}\u{94D}@example.com"))
    }
}
