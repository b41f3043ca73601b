import SwiftSyntax

/// One case of a screen's output enum, read for `@ScreenEvents`: its wire name (the case name)
/// and what it carries.
struct EventCase {
    /// What a case carries on the wire.
    enum Carried {
        /// Nothing: `case signUp`.
        case nothing
        /// One unlabelled `Codable` value, the payload itself: `case submit(Credentials)`.
        case value(TypeSyntax)
        /// Labelled values, the fields of a generated payload struct: `case move(from: Int, to: Int)`.
        case fields([Field])
    }

    /// A labelled value of a case: a field of its payload.
    struct Field {
        /// The field's name on the wire (`from`).
        let name: String
        /// The name as Swift code spells it (backquoted where it is a keyword).
        let code: String
        let type: TypeSyntax

        /// The name as an argument label in a call: any keyword but `inout`, `var` and `let` is a
        /// label as it stands there, and the compiler warns about backquotes it does not need.
        var label: String { ["inout", "var", "let"].contains(name) ? code : name }
    }

    /// The event's wire name: the case name.
    let name: String
    /// The case name as Swift code spells it.
    let code: String
    let carried: Carried

    /// The generated payload struct of a case with labelled values (`MovePayload`).
    var payloadStruct: String { name.prefix(1).uppercased() + name.dropFirst() + "Payload" }
}

extension TokenSyntax {
    /// The name without backquotes (`` `default` `` is `default`).
    var unquoted: String {
        let text = self.text
        return text.hasPrefix("`") && text.hasSuffix("`") && text.count > 1 ? String(text.dropFirst().dropLast()) : text
    }

    /// The name as an identifier in code: a keyword used as a label (`in:`) needs backquotes.
    var asIdentifier: String {
        let name = unquoted
        return Self.keywords.contains(name) ? "`\(name)`" : name
    }

    /// Words that are a label as they stand but need backquotes as a property or variable name.
    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    ]
}
