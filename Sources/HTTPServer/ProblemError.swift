/// An error that answers as a problem: a `Problem` itself, or an error of a layer above that says,
/// once for each of its cases, which `ProblemType` it is and what this occurrence adds (the
/// detail, extension members, headers). A handler throws it; the router answers with `problem`.
package protocol ProblemError: Error {
    /// The problem this error answers with.
    var problem: Problem { get }
}

extension Problem: ProblemError {
    package var problem: Problem { self }
}
