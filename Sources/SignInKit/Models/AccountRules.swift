import AccountProtection
import Foundation
import Navigation
import Secrets

/// The kit's input rules; a broken rule becomes the screen's `error`, never an HTTP error.
/// Text is limited by what a person sees (characters) and by what it costs (bytes, combining
/// marks per character): one "character" can otherwise hide 64 KB of accents.
public enum AccountRules {
    /// A plausible address: one `@`, a non-empty local part, a dotted domain, no spaces, ≤ 254
    /// bytes, no combining mark that no keyboard types (`EmailAddress.hasStrayMarks`), and a
    /// comparison key within `EmailBounds`.
    public static func emailError(_ email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        let valid = parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".")
            && !parts[1].hasSuffix(".") && !email.contains(where: \.isWhitespace) && email.utf8.count <= 254
            && !EmailAddress.hasStrayMarks(email)
            && EmailBounds.keyFits(email)
        return valid ? nil : "Enter a valid e-mail address."
    }

    /// NIST SP 800-63B rev. 4: 15 to 128 characters, no composition rules. Each code point of
    /// the normalised password counts (`PreparedPasswords.normalized`, what is hashed).
    public static func passwordError(_ password: String) -> String? {
        (15...128).contains(PreparedPasswords.normalized(password).unicodeScalars.count)
            ? nil : "Use a password of 15 to 128 characters."
    }

    /// Passwords as a client may count them before sending (the server counts code points, see `passwordError`).
    public static let password = TextLimit(characters: 15...128)
    /// Display names: 1 to 50 characters, at most 200 bytes.
    public static let displayName = TextLimit(characters: 1...50)

    /// The error of a display name (trimmed), if it breaks the rule.
    public static func displayNameError(_ trimmed: String) -> String? {
        switch displayName.violation(in: trimmed) {
        case nil: nil
        case .length: "Use a display name of 1 to 50 characters."
        case .marks: "Use at most \(TextLimit.defaultMarksPerCharacter) accents on one letter."
        }
    }

    public static let emailTaken = "This e-mail is already registered."
    public static let wrongCredentials = "Wrong e-mail or password."
    public static let wrongPassword = "The password is not correct."
}

extension String {
    /// Without the white space around it.
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
