import CoordinatorFlowTesting
import Navigation
import Testing

@testable import Greeter

/// The History tab: the list, a person, the confirm alert, the card on a modal sheet.
@Suite struct HistoryTests {
    /// A session that greeted Ada twice and Bob once, on the History tab.
    func greetedAdaTwiceAndBob() async throws -> AppTester {
        var app = try await AppTester(Greeter.served, platform: .web)
        for name in ["Ada", "Bob", "Ada"] {
            try await app.send(HelloScreen.self, .greet(name: Identifier(wrappedValue: name)))
            try await app.send("back")
        }
        try await app.send("selectTab", ["tab": "history"])
        return app
    }

    /// How each layer of the State is presented, bottom to top.
    func layers(of app: AppTester) -> [String] {
        app.state["stack"]?.arrayValue?.compactMap { $0["presentation"]?.stringValue } ?? []
    }

    /// The list was pushed when the session started, empty; selecting its tab shows it again
    /// (`screenAppeared`), with everyone greeted meanwhile.
    @Test func theHistoryTabShowsWhoWasGreetedMeanwhile() async throws {
        var app = try await greetedAdaTwiceAndBob()
        #expect(try app.props(of: HistoryScreen.self).people == [Person(name: "Ada", times: 2), Person(name: "Bob", times: 1)])
        #expect(app.accepted == ["show", "sort", "selectTab"])
        try await app.send(HistoryScreen.self, .sort)
        try await app.send(HistoryScreen.self, .sort)
        #expect(try app.props(of: HistoryScreen.self).sortedBy == "name")
        try await app.send(HistoryScreen.self, .show(name: "Bob"))
        #expect(try app.props(of: PersonScreen.self).times == 1)

        // Bob greeted again in the other tab: his screen shows it when its tab is selected again.
        try await app.send("selectTab", ["tab": "greet"])
        try await app.send(HelloScreen.self, .greet(name: "Bob"))
        try await app.send("selectTab", ["tab": "history"])
        #expect(try app.props(of: PersonScreen.self).times == 2)
        try await app.send("back")
        #expect(try app.props(of: HistoryScreen.self).people == [Person(name: "Ada", times: 2), Person(name: "Bob", times: 2)])
    }

    /// Most greeted first, then by name again.
    @Test func theListSortsByGreetingsOrByName() async throws {
        var app = try await greetedAdaTwiceAndBob()
        try await app.send("selectTab", ["tab": "greet"])
        for _ in 1...3 { try await app.send(HelloScreen.self, .greet(name: "Bob")); try await app.send("back") }
        try await app.send("selectTab", ["tab": "history"])
        try await app.send(HistoryScreen.self, .sort)
        #expect(try app.props(of: HistoryScreen.self).people.map(\.name) == ["Bob", "Ada"])
        #expect(try app.props(of: HistoryScreen.self).sortedBy == "greetings")
        try await app.send(HistoryScreen.self, .sort)
        #expect(try app.props(of: HistoryScreen.self).people.map(\.name) == ["Ada", "Bob"])
    }

    /// Forgetting asks first, in an alert over everything; keeping changes nothing.
    @Test func forgettingAPersonAsksFirst() async throws {
        var app = try await greetedAdaTwiceAndBob()
        try await app.send(HistoryScreen.self, .show(name: "Ada"))
        try await app.send(PersonScreen.self, .forget)
        #expect(layers(of: app) == ["root", "alert"])
        #expect(try app.props(of: ForgetAlert.self).message == "Forget Ada and their cards?")
        #expect(app.accepted == ["forget", "keep", "dismiss"])
        try await app.send(ForgetAlert.self, .keep)
        #expect(try app.props(of: PersonScreen.self).name == "Ada")
        try await app.send(PersonScreen.self, .forget)
        try await app.send(ForgetAlert.self, .forget)
        #expect(try app.props(of: HistoryScreen.self).people == [Person(name: "Bob", times: 1)])
        #expect(try app.rows(in: "greetings") == 1)
    }

    /// The card: a child coordinator on a modal sheet, two steps, and `back` between them keeps
    /// the draft. Sent, its parent stores it, and the person's screen shows it when it is on top again.
    @Test func aCardIsWrittenInTwoStepsOnASheetAndSent() async throws {
        var app = try await greetedAdaTwiceAndBob()
        try await app.send(HistoryScreen.self, .show(name: "Ada"))
        try await app.send(PersonScreen.self, .writeCard)
        #expect(layers(of: app) == ["root", "modal"])
        try await app.send(CardScreen.self, .next(message: " "))
        #expect(try app.props(of: CardScreen.self).error == "Write 1 to 200 characters.")
        try await app.send(CardScreen.self, .next(message: "Happy birthday! "))
        #expect(try app.props(of: CardPreviewScreen.self).message == "Happy birthday!")
        #expect(app.accepted == ["send", "back", "dismiss"])
        try await app.send("back")
        #expect(try app.props(of: CardScreen.self).message == "Happy birthday!")
        try await app.send(CardScreen.self, .next(message: "Happy birthday, Ada!"))
        try await app.send(CardPreviewScreen.self, .send)
        let ada = try app.props(of: PersonScreen.self)
        #expect(ada.cards == 1)
        #expect(ada.lastCard == "Happy birthday, Ada!")
        #expect(layers(of: app) == ["root"])
    }

    /// The user swipes the sheet away: the client sends the system `dismiss`. The sheet's layer
    /// goes, the card coordinator with it, and its parent hears the runtime's cancellation: no card.
    @Test func dismissingTheSheetSendsNoCard() async throws {
        var app = try await greetedAdaTwiceAndBob()
        try await app.send(HistoryScreen.self, .show(name: "Ada"))
        try await app.send(PersonScreen.self, .writeCard)
        try await app.send(CardScreen.self, .next(message: "Happy birthday!"))
        try await app.send("dismiss")
        #expect(try app.props(of: PersonScreen.self).cards == 0)
        #expect(try app.database.queryFirst("SELECT cards FROM greetings WHERE name = 'Ada'") { $0.int(0) } == 0)
        #expect(layers(of: app) == ["root"])
        try await app.send(PersonScreen.self, .writeCard)  // the child's key is free again
        #expect(try app.props(of: CardScreen.self).message == "")
    }
}
