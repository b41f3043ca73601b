extension Coordinator {
    /// Opens no link by default.
    public mutating func open(_ link: Link, _ context: inout Context) throws -> Handling { .unhandled }
}
