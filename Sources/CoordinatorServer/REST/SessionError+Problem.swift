import Foundation
import HTTPServer
import Navigation
import Sessions

extension SessionError {
    /// The problem+json answer for this error.
    var problem: Problem {
        switch self {
        case .unauthorized:
            Problem(
                status: 401, detail: "A valid bearer token for this session is required.",
                headers: HTTPHeaders([("WWW-Authenticate", "Bearer")]))
        case .notFound:
            Problem(status: 404, detail: "No such session.")
        case .staleScreen(let state, let detail):
            Problem(status: 409, detail: detail, extensions: ["state": RawJSON(bytes: state)])
        case .versionMismatch(let state, let current):
            Problem(
                status: 412, detail: "If-Match does not name the current version (\(current)).",
                extensions: ["state": RawJSON(bytes: state)])
        case .throttled(let throttled):
            Problem(
                status: 429, detail: throttled.detail,
                headers: HTTPHeaders([("Retry-After", String(throttled.retryAfterSeconds))]))
        case .idempotencyKeyReused:
            Problem.unprocessable(
                "This Idempotency-Key was used for a different request.",
                errors: [FieldError(field: "Idempotency-Key", message: "was used for a different request")])
        case .idempotencyKeyInFlight:
            Problem(status: 409, detail: "A request with this Idempotency-Key is still running; retry later.")
        case .storageUnavailable:
            Problem(
                status: 503, detail: "Storage is unavailable; nothing was changed.",
                headers: HTTPHeaders([("Retry-After", "1")]))
        case .tooManyPasswordChecks(let seconds):
            Problem(
                status: 429, detail: "Too many password checks from this client are under way; retry shortly. Nothing was changed.",
                type: Self.tooManyPasswordChecksType, headers: HTTPHeaders([("Retry-After", String(seconds))]))
        case .tooManySessions(let seconds):
            Problem(
                status: 429, detail: "Too many sessions created from this client; retry later.",
                type: Self.tooManySessionsType, headers: HTTPHeaders([("Retry-After", String(seconds))]))
        }
    }
}

extension SessionError {
    /// Problem types of the two per-client limits (stable: clients may tell them apart by it).
    static let tooManyPasswordChecksType = "urn:coordinatord:problem:too-many-password-checks"
    static let tooManySessionsType = "urn:coordinatord:problem:too-many-sessions"
}

extension EventRejection {
    var problem: Problem {
        switch self {
        case .notTopScreen: Problem(status: 409, detail: detail)
        default: Problem.unprocessable(detail, errors: fieldErrors)
        }
    }
}

extension Problem {
    /// A `422` with per-field errors.
    static func unprocessable(_ detail: String, errors: [FieldError]) -> Problem {
        Problem(status: 422, detail: detail, extensions: ["errors": errors])
    }
}

/// Already serialized JSON, embedded as is in a problem (the current state).
struct RawJSON: Encodable, Sendable {
    let bytes: [UInt8]

    func encode(to encoder: any Encoder) throws {
        let value = try JSONValue.parse(bytes)
        try value.encode(to: encoder)
    }
}

extension HTTPRequest {
    /// The token of `Authorization: Bearer <token>`, if sent.
    var bearerToken: String? {
        guard let header = headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1].trimmingOptionalWhitespace())
    }

    /// The body as a JSON object: `415` if not sent as JSON, `400` if not a JSON object.
    func jsonObject() throws -> JSONValue {
        let contentType = headers["Content-Type"]?.split(separator: ";").first?.trimmingOptionalWhitespace().lowercased()
        guard contentType == "application/json" || contentType?.hasSuffix("+json") == true else {
            throw Problem(status: 415, detail: "Send the body as application/json.")
        }
        guard let value = try? JSONValue.parse(body), case .object = value else {
            throw Problem(status: 400, detail: "The body is not a JSON object.")
        }
        return value
    }
}
