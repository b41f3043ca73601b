@testable import CoordinatorServer
import Foundation
import HTTPServer
import Navigation
@testable import Secrets
import Sessions
import Testing

/// Every kind of problem the server answers with is declared once, has its own stable type, and is
/// documented (api/openapi.yaml's `Problem.type`, the README's error table).
@Suite struct ProblemTypeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The types api/openapi.yaml lists, with the status its description starts with.
    static func documentedInOpenAPI() throws -> [String: Int] {
        let document = try String(contentsOf: repository.appendingPathComponent("api/openapi.yaml"), encoding: .utf8)
        let lines = document.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // `Problem.type`'s enum lists the types; its description says each one's status, in a
        // line of its own (`- `stale-screen`: 409: …`).
        let listed = lines.filter { $0.hasPrefix("- \(ProblemType.scheme)") }.map { String($0.dropFirst(2)) }
        var statuses: [String: Int] = [:]
        for line in lines where line.hasPrefix("- `") {
            let parts = line.dropFirst(3).split(separator: "`", maxSplits: 1)
            guard parts.count == 2, parts[1].hasPrefix(": ") else { continue }
            statuses[ProblemType.scheme + parts[0]] = Int(parts[1].dropFirst(2).prefix(3))
        }
        return Dictionary(listed.map { ($0, statuses[$0] ?? 0) }) { first, _ in first }
    }

    /// The types the README's error table lists (`| 409 | `stale-screen` | … |`), with their status.
    static func documentedInREADME() throws -> [String: Int] {
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        var types: [String: Int] = [:]
        for line in readme.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, let status = Int(cells[0]), cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else {
                continue
            }
            types[ProblemType.scheme + cells[1].dropFirst().dropLast()] = status
        }
        return types
    }

    @Test func everyKindHasItsOwnTypeAndIsDocumentedWithItsStatus() throws {
        let kinds = ProblemType.all
        #expect(Set(kinds.map(\.name)).count == kinds.count, "two kinds share a name")
        #expect(Set(kinds.map(\.reason)).count == kinds.count, "two kinds share a metric reason")
        let declared = Dictionary(uniqueKeysWithValues: kinds.map { ($0.uri, $0.status) })
        #expect(try Self.documentedInOpenAPI() == declared)
        #expect(try Self.documentedInREADME() == declared)
        for kind in kinds {
            #expect(!kind.title.isEmpty && !kind.name.isEmpty)
            #expect(!HTTPStatus.reason(kind.status).hasPrefix("HTTP "), "\(kind.status) has no reason phrase")
        }
    }

    /// The errors of the service and the runtime answer with their own kinds: two different 409s,
    /// three different 503s, and the same kind for one problem however it arises.
    @Test func eachErrorAnswersWithItsKind() {
        let state = Array(#"{"version":2}"#.utf8)
        let stale = SessionError.staleScreen(state: state, version: 2, detail: "stale").problem
        let inFlight = SessionError.idempotencyKeyInFlight.problem
        #expect(stale.status == 409 && inFlight.status == 409)
        #expect(stale.type == .staleScreen && inFlight.type == .idempotencyKeyInFlight)
        #expect(EventRejection.notTopScreen(screen: ScreenID("s1"), top: nil).problem.type == .staleScreen)

        let unavailable = [
            SessionError.storageUnavailable("disk I/O error").problem, SessionError.shuttingDown.problem,
            PasswordPoolBusy(retryAfterSeconds: 1).problem,
        ]
        #expect(unavailable.allSatisfy { $0.status == 503 })
        #expect(Set(unavailable.map(\.type.uri)).count == 3)
        #expect(Set(unavailable.map(\.type)).isSubset(of: Set(ProblemType.all)))

        let throttled = EventThrottled(retryAfterSeconds: 7, detail: "wait")
        #expect(SessionError.throttled(throttled).problem.type == throttled.problem.type)
        #expect(throttled.problem.headers["Retry-After"] == "7")
    }
}
