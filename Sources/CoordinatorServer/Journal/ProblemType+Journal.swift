import HTTPServer

// The kinds of problem the history and operator endpoints add (listed in `ProblemType.all`).
extension ProblemType {
    /// 400: a query argument (`before`, `limit`, `version`) is not a number the call accepts.
    static let invalidQuery = ProblemType("invalid-query", status: 400, title: "Invalid query")
    /// 401: an operator endpoint without the operator key, or with a wrong one.
    static let operatorUnauthorized = ProblemType("operator-unauthorized", status: 401, title: "Operator key required")
    /// 403: this server was started without an operator key, so no one may use operator endpoints.
    static let operatorAccessDisabled = ProblemType(
        "operator-access-disabled", status: 403, title: "Operator access disabled")
    /// 409: an operator read of a stored session whose snapshot this build cannot restore (`reason`).
    static let sessionWouldStartOver = ProblemType(
        "session-would-start-over", status: 409, title: "Session would start over")
    /// 404: the journal no longer covers (or never covered) this version of the session.
    static let versionNotRetained = ProblemType("version-not-retained", status: 404, title: "Version not retained")
}

extension ProblemType {
    /// The kinds above, for `ProblemType.all`.
    static let journal: [ProblemType] = [
        .invalidQuery, .operatorUnauthorized, .operatorAccessDisabled, .versionNotRetained, .sessionWouldStartOver,
    ]
}
