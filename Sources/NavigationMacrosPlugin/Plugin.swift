import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that expands `@ScreenEvents` and `@JSONWritable` (declared in the `NavigationMacros` module).
@main
struct NavigationMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ScreenEventsMacro.self, JSONWritableMacro.self]
}
