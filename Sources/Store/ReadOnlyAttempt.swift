/// How work tried on a read-only connection (`Store.attemptReadOnly`) ended.
package enum ReadOnlyAttempt<T> {
    /// The work only read, and returned this.
    case completed(T)
    /// The work tried to write. Nothing was written, whatever the work did with the refusal:
    /// run it again as a write.
    case needsWriter
}

extension Store {
    /// No read-only connection to run work on at once: the caller runs it as a write.
    package func attemptReadOnly<T>(_ work: (any SQLConnection) throws -> T) throws -> ReadOnlyAttempt<T>? { nil }
}
