/// The SQL a backend speaks. Statements that both accept are written once; where they differ
/// (an app's migrations, say), the code asks `connection.dialect`.
public enum SQLDialect: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The embedded store: one SQLite file per machine.
    case sqlite
    /// The shared store: one PostgreSQL database behind several nodes.
    case postgresql

    public var description: String { rawValue }
}
