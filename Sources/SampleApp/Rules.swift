import Foundation

/// The app's input rules; a broken rule becomes the screen's `error`, never an HTTP error.
enum Rules {
    /// A plausible address: one `@`, a non-empty local part, a dotted domain, no spaces, ≤ 254 bytes
    /// and a comparison key within `EmailBounds`.
    static func emailError(_ email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        let valid = parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".")
            && !parts[1].hasSuffix(".") && !email.contains(where: \.isWhitespace) && email.utf8.count <= 254
            && EmailBounds.keyFits(email)
        return valid ? nil : "Enter a valid e-mail address."
    }

    /// NIST SP 800-63B rev. 4: 15 to 128 characters (each code point counts), no composition rules.
    static func passwordError(_ password: String) -> String? {
        (15...128).contains(password.unicodeScalars.count) ? nil : "Use a password of 15 to 128 characters."
    }

    static func displayNameError(_ trimmed: String) -> String? {
        (1...50).contains(trimmed.count) ? nil : "Use a display name of 1 to 50 characters."
    }

    static func postError(_ text: String) -> String? {
        (1...500).contains(text.count) ? nil : "A post has 1 to 500 characters."
    }

    static let emailTaken = "This e-mail is already registered."
    static let wrongCredentials = "Wrong e-mail or password."
    static let wrongPassword = "The password is not correct."
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
