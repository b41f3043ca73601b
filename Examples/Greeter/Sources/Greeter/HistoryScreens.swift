import Navigation
import NavigationMacros

/// Everyone greeted so far; an item opens that person.
public enum HistoryScreen: ScreenType {
    public static let summary = "Everyone greeted so far."
    public static let presentation = ScreenPresentation(
        title: "History", fields: ["sortedBy": .label("Sorted by")], events: ["sort": .secondary("Sort")],
        itemActions: [ItemAction("people", opens: "show", with: "name", from: "name", title: "name", subtitle: "times")])

    @JSONWritable
    public struct Props: Codable, Sendable {
        public var people: [Person]
        public var sortedBy: String
    }

    @ScreenEvents
    public enum Output {
        case show(name: String)
        case sort
    }
}

/// One person in the history.
@JSONWritable
public struct Person: Codable, Sendable, Hashable {
    public var name: String
    public var times: Int
}

/// One person: how often they were greeted, and the cards sent to them.
public enum PersonScreen: ScreenType {
    public static let summary = "One person greeted."
    public static let presentation = ScreenPresentation(
        // The name is the screen's heading: no visible label, but a screen reader still names it.
        fields: ["name": .init(label: "", accessibilityLabel: "Name", display: .heading), "lastCard": .label("Last card")],
        events: ["writeCard": .primary("Write a card"), "forget": .destructive("Forget")])

    public struct Props: Codable, Sendable {
        public var name: String
        public var times: Int
        public var cards: Int
        public var lastCard: String?
    }

    @ScreenEvents
    public enum Output {
        case writeCard
        case forget
    }
}

/// Asks before a person is forgotten: an alert.
public enum ForgetAlert: ScreenType {
    public static let summary = "Asks before a person is forgotten."
    public static let presentation = ScreenPresentation(
        fields: ["name": .hidden], events: ["forget": .destructive("Forget"), "keep": .cancel("Keep")])

    public struct Props: Codable, Sendable {
        public var name: String
        public var message: String
    }

    @ScreenEvents
    public enum Output {
        case forget
        case keep
    }
}
