import Foundation
import TestSupport
import Testing

/// What every error answer must be: `application/problem+json` with the expected status and a
/// stable `type` that api/openapi.yaml documents (`Problem.type`).
enum ProblemAssertions {
    /// The problem types the OpenAPI document lists (`Problem.type`'s enum).
    static let documented: Set<String> = {
        let document = (try? String(contentsOfFile: OpenAPITests.document, encoding: .utf8)) ?? ""
        return Set(
            document.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("- urn:coordinatord:problem:") }.map { String($0.dropFirst("- ".count)) })
    }()

    /// Expects `response` to be a problem of `status` whose type is `urn:coordinatord:problem:<name>`, a documented one.
    static func expect(
        _ response: TestResponse, _ status: Int, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let type = response.json["type"] as? String ?? ""
        #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers["content-type"] == "application/problem+json", sourceLocation: sourceLocation)
        #expect(type == "urn:coordinatord:problem:" + name, sourceLocation: sourceLocation)
        #expect(documented.contains(type), "\(type) is not in api/openapi.yaml", sourceLocation: sourceLocation)
        #expect(!(response.json["title"] as? String ?? "").isEmpty, sourceLocation: sourceLocation)
    }
}
