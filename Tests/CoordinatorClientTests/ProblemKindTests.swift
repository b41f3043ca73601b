import CoordinatorClient
import Foundation
import Testing

/// The client names every problem type the API document lists, and no other.
@Suite struct ProblemKindTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyDocumentedProblemHasAKind() throws {
        let document = try String(contentsOf: Self.repository.appendingPathComponent("api/openapi.yaml"), encoding: .utf8)
        let documented = Set(
            document.split(separator: "\n").compactMap { line -> String? in
                guard line.trimmingCharacters(in: .whitespaces).hasPrefix("- urn:coordinatord:problem:"),
                    let range = line.range(of: "urn:coordinatord:problem:")
                else { return nil }
                return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
            })
        #expect(documented.count > 20)
        #expect(Set(CoordinatorProblem.Kind.known.map(\.name)) == documented)
        #expect(CoordinatorProblem.Kind.known.allSatisfy { $0.rawValue.hasPrefix(CoordinatorProblem.Kind.prefix) })
    }
}
