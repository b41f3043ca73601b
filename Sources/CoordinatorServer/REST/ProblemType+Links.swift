import HTTPServer
import Navigation

// The kinds of problem a link answers with (`POST /v1/sessions {"link"}`, the `open` event).
extension ProblemType {
    /// 403: the session's user may not see what the link names.
    static let linkForbidden = ProblemType("link-forbidden", status: 403, title: "Link not allowed")
    /// 404: no link pattern of the app matches the link.
    static let unknownLink = ProblemType("unknown-link", status: 404, title: "Unknown link")
    /// 404: what the link names does not exist (a deleted post).
    static let linkTargetNotFound = ProblemType("link-target-not-found", status: 404, title: "Link target not found")
    /// 422: the link is not a plain path, or one of its parameters has the wrong form (`errors`).
    static let invalidLink = ProblemType("invalid-link", status: 422, title: "Invalid link")
    /// 422: no coordinator opens the link from where the session is.
    static let unhandledLink = ProblemType("unhandled-link", status: 422, title: "Link not handled")

    /// Every kind a link answers with.
    static let links: [ProblemType] = [.linkForbidden, .unknownLink, .linkTargetNotFound, .invalidLink, .unhandledLink]
}

extension LinkRejection: ProblemError {
    package var problem: Problem {
        let kind: ProblemType =
            switch self {
            case .unknown: .unknownLink
            case .invalid: .invalidLink
            case .notFound: .linkTargetNotFound
            case .forbidden: .linkForbidden
            case .unhandled: .unhandledLink
            }
        return Problem(kind, detail: detail, extensions: ["errors": fieldErrors])
    }
}
