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
            return text.unicodeScalars.contains(where: Self.isHiddenOrControl)
                ? "must not contain control, invisible or bidirectional-control characters" : nil
        }
    }

    /// Control and format characters (zero-width, bidi embeddings and isolates, the BOM), line
    /// and paragraph separators, code points that render as nothing, and unassigned ones.
    private static func isHiddenOrControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
            return true
        default:
            return scalar.properties.isDefaultIgnorableCodePoint
        }
    }
}
