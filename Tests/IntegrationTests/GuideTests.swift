import Foundation
import Testing

/// The guide's code is `Examples/Greeter`, word for word: `make test` builds and tests that
/// package, so the guide compiles and works.
@Suite struct GuideTests {
    @Test func everyCodeBlockOfTheGuideIsTheFileItNames() async throws {
        let guide = try String(
            contentsOf: OpenAPITests.repository.appendingPathComponent("docs/guide.md"), encoding: .utf8)
        let parts = guide.components(separatedBy: "<!-- file: ").dropFirst()
        #expect(parts.count >= 8)
        for part in parts {
            let path = try #require(part.components(separatedBy: " -->").first)
            let fence = try #require(part.range(of: "```"))
            let codeStart = try #require(part[fence.upperBound...].firstIndex(of: "\n"))
            let code = part[part.index(after: codeStart)...]
            let end = try #require(code.range(of: "\n```"))
            let file = try String(contentsOf: OpenAPITests.repository.appendingPathComponent(path), encoding: .utf8)
            #expect(String(code[..<end.lowerBound]) == file.trimmingCharacters(in: .newlines), "\(path)")
        }
    }
}
