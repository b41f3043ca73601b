/// Why a link was not opened. The session is unchanged whenever one is thrown.
public enum LinkRejection: Error, Sendable, Hashable {
    /// No pattern of the app matches the link (`404`).
    case unknown(link: String)
    /// The link is not a path, or a parameter has the wrong form (`422`, per field).
    case invalid([FieldError])
    /// What the link names does not exist (a deleted post) (`404`).
    case notFound(String)
    /// The session's user may not see what the link names (`403`), like any unauthorised navigation.
    case forbidden(String)
    /// No coordinator opened the link from where the session is (`422`).
    case unhandled(link: String)

    /// A sentence for the `detail` of a problem.
    public var detail: String {
        switch self {
        case .unknown(let link): "No screen of this app has the link \"\(link)\"."
        case .invalid(let errors):
            "The link is invalid: " + errors.map { "\($0.field) \($0.message)" }.joined(separator: "; ") + "."
        case .notFound(let detail), .forbidden(let detail): detail
        case .unhandled(let link): "The link \"\(link)\" cannot be opened from here."
        }
    }

    /// Field errors for the problem's `errors` member.
    public var fieldErrors: [FieldError] {
        switch self {
        case .invalid(let errors): errors
        case .unknown: [FieldError(field: "link", message: "matches no link of this app")]
        case .notFound(let detail), .forbidden(let detail): [FieldError(field: "link", message: detail)]
        case .unhandled: [FieldError(field: "link", message: "cannot be opened from here")]
        }
    }
}
