import CoordinatorFlowTesting
import Foundation
import Testing

@testable import Greeter

/// Sessions stored by an earlier release restore in this one. After a deploy the server
/// restores each session from its snapshot; one that no longer decodes starts over.
@Suite struct RestoreTests {
    /// A session on Ada's screen in the History tab, stored before `HistoryCoordinator` had
    /// `order` (its state is `{}`).
    @Test func aSessionStoredBeforeTheListCouldBeSortedRestores() async throws {
        let file = try #require(Bundle.module.url(forResource: "history-before-order", withExtension: "json", subdirectory: "Snapshots"))
        var app = try await AppTester(Greeter.served, restoring: String(contentsOf: file, encoding: .utf8))
        #expect(try app.props(of: PersonScreen.self).name == "Ada")
        try app.database.run("INSERT INTO greetings (name, times) VALUES ('Ada', 2), ('Bob', 3)", [])
        try await app.send("back")
        #expect(try app.props(of: HistoryScreen.self).people.map(\.name) == ["Ada", "Bob"])
        try await app.send(HistoryScreen.self, .sort)
        #expect(try app.props(of: HistoryScreen.self).people.map(\.name) == ["Bob", "Ada"])
    }
}
