/// How work tried on a read-only connection (`Store.attemptReadOnly`) ended.
package enum ReadOnlyAttempt<T> {
    /// The work only read, and returned this.
    case completed(T)
    /// The work tried to write. Nothing was written, whatever the work did with the refusal:
    /// run it again as a write.
    case needsWriter
}

extension ReadOnlyAttempt: Sendable where T: Sendable {}

extension Store {
    /// No read-only connection to offer: the caller runs the work as a write.
    package func attemptReadOnly<T: Sendable, U: Sendable>(
        _ work: @escaping @Sendable (any SQLConnection) throws -> T,
        then write: @escaping @Sendable (T, any SQLConnection) throws -> U
    ) async throws -> ReadOnlyAttempt<U>? {
        nil
    }
}
