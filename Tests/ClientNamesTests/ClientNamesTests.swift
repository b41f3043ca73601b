import CoordinatorClient
import Foundation
import SwiftUI
import Testing

/// A shell's file imports SwiftUI and CoordinatorClient together: no name of the client may
/// collide with SwiftUI's (`State`, `Tab`), and the module's types can be qualified by its name
/// (no type is named like the module). This file compiling is most of the test.
@Suite struct ClientNamesTests {
    struct ShellView: View {
        @State var shown: SessionState?
        @State var tab = Tab("Home")
        let client: CoordinatorSession
        let qualified: CoordinatorClient.SessionState? = nil
        let tabs: [CoordinatorClient.SessionTab] = []
    }

    @Test func aFileImportingSwiftUIAndTheClientUsesBothUnqualified() throws {
        let client = CoordinatorSession(baseURL: try #require(URL(string: "http://127.0.0.1:1")))
        let view = ShellView(client: client)
        #expect(view.shown == nil)
        #expect(view.tab.title == "Home")
        #expect(view.qualified == nil && view.tabs.isEmpty)
    }
}
