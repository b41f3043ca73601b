import CoordinatorClient
import Foundation
import Testing

/// What a native shell shows for a State, and what its own gestures send.
@Suite struct ScreenStackModelTests {
    static func screen(_ id: String, _ name: String, top: Bool = false) -> Screen {
        Screen(id: ScreenID(id), name: name, events: top ? ["back"] : [])
    }

    /// Tabs (home with a pushed post), a sheet over them with a pushed screen, an alert on top.
    static let state = SessionState(
        id: "session", version: 9, user: User(id: 1, displayName: "Ada"),
        stack: [
            Layer(
                presentation: .root,
                tabs: [
                    SessionTab(name: "home", title: "Home", screens: [screen("s5", "timeline"), screen("s8", "post")]),
                    SessionTab(name: "profile", title: "Profile", screens: [screen("s6", "profile")]),
                ], selectedTab: "home"),
            Layer(presentation: .modal, screens: [screen("s10", "compose"), screen("s11", "preview")]),
            Layer(presentation: .alert, screens: [screen("s12", "confirm", top: true)]),
        ], top: ScreenID("s12"))

    @Test func tabsSheetsAndAnAlert() throws {
        let model = ScreenStackModel(Self.state)
        let base = try #require(model.base)
        guard case .tabs(let tabs) = base.content else { Issue.record("no tabs"); return }
        #expect(tabs.selected == "home")
        #expect(tabs.tabs.map(\.title) == ["Home", "Profile"])
        #expect(base.stack()?.root.name == "timeline")
        #expect(base.stack()?.pathIDs == [ScreenID("s8")])
        #expect(base.stack(tab: "profile")?.topScreen.name == "profile")
        #expect(model.sheets.map(\.id) == [ScreenID("s10")])
        #expect(model.sheets.first?.stack()?.path.map(\.name) == ["preview"])
        #expect(model.alert?.name == "confirm")
        #expect(model.layers.map(\.index) == [0, 1])
        // Under an alert nothing is on top: gestures there send nothing.
        #expect(model.layers.allSatisfy { !$0.isTop })
        #expect(model.action(dismissing: model.sheets[0]) == nil)
        #expect(model.action(poppingTo: 0, in: model.sheets[0]) == nil)
    }

    @Test func gesturesOnTheTopLayerSendSystemEvents() throws {
        var state = Self.state
        state.stack.removeLast()
        state.top = ScreenID("s11")
        let model = ScreenStackModel(state)
        #expect(model.alert == nil)
        let sheet = try #require(model.sheets.first)
        let base = try #require(model.base)
        #expect(sheet.isTop && !base.isTop)
        #expect(model.action(poppingTo: 0, in: sheet) == .back)
        #expect(model.action(poppingTo: 1, in: sheet) == nil)  // SwiftUI echoing the path it was given
        #expect(model.action(dismissing: sheet) == .dismiss)

        state.stack.removeLast()
        state.top = ScreenID("s8")
        let tabs = ScreenStackModel(state)
        let root = try #require(tabs.base)
        #expect(tabs.sheets.isEmpty && root.isTop)
        #expect(tabs.action(selecting: "profile", in: root) == .selectTab("profile"))
        #expect(tabs.action(selecting: "home", in: root) == nil)
        #expect(tabs.action(selecting: "nowhere", in: root) == nil)
        #expect(tabs.action(poppingTo: 0, in: root) == .back)
        #expect(tabs.action(poppingTo: 0, in: root, tab: "profile") == nil)
        #expect(tabs.action(dismissing: root) == nil)  // the root is never dismissed
    }

    /// The State decodes from the server's JSON as README shows it, `user` null included.
    @Test func decodesTheWireState() throws {
        let json = """
            {"id":"a","stack":[{"presentation":"root","screens":[{"events":["signUp","logIn"],"id":"s1",\
            "name":"firstRun","props":{}}]}],"top":"s1","user":null,"version":1}
            """
        let state = try JSONDecoder().decode(SessionState.self, from: Data(json.utf8))
        #expect(state.topScreen?.events == ["signUp", "logIn"])
        #expect(state.user == nil)
        let model = ScreenStackModel(state)
        #expect(model.base?.stack()?.root.name == "firstRun")
        #expect(model.base?.isTop == true)
    }
}
