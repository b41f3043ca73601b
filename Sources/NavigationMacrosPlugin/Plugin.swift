import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that expands `@ScreenEvents` (declared in the `NavigationMacros` module).
@main
struct NavigationMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ScreenEventsMacro.self]
}
