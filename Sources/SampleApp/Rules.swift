import Foundation
import Navigation
import SignInKit

/// The app's own input rules (the account's are `AccountRules`); a broken rule becomes the
/// screen's `error`, never an HTTP error.
enum Rules {
    /// Posts: 1 to 500 characters, at most 2,000 bytes.
    static let post = TextLimit(characters: 1...500)

    static func postError(_ text: String) -> String? {
        switch post.violation(in: text) {
        case nil: nil
        case .length: "A post has 1 to 500 characters."
        case .marks: "Use at most \(TextLimit.defaultMarksPerCharacter) accents on one letter."
        }
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
