import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Expects `source` to expand with `macros` to `expanded`, with `diagnostics`; a mismatch is an
/// issue recorded at the caller's line.
func expectExpansion(
    _ source: String, expandsTo expanded: String, diagnostics: [DiagnosticSpec], macros: [String: MacroSpec],
    sourceLocation: SourceLocation
) {
    assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macros) { failure in
        Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
    }
}
