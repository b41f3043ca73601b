/// The mistakes in how an app is put together (a screen or coordinator name used twice, a
/// presentation hint naming no prop or event), each a sentence that names the screen or type and
/// the key. `NavigationApp` finds them when it is built; the server refuses to start with them,
/// and every session's start throws them, so an app's first flow test fails with them too.
public struct AppDefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One sentence per mistake.
    public let problems: [String]

    /// The error of `problems`.
    public init(problems: [String]) {
        self.problems = problems
    }

    public var description: String {
        "the app is not well defined:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}
