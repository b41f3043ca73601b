import Navigation
import NavigationMacros

/// The card's first step: its message.
public enum CardScreen: ScreenType {
    public static let summary = "Writes a card."
    public static let presentation = ScreenPresentation(
        title: "A card", fields: ["to": .label("To"), "message": FieldPresentation(label: "Message", input: .multiline)],
        events: ["next": .primary("Next")])

    public struct Props: Codable, Sendable {
        public var to: String
        public var message: String = ""
        public var error: String?
    }

    @ScreenEvents
    public enum Output {
        case next(message: String)
    }
}

/// The card's second step: read it over, and send it.
public enum CardPreviewScreen: ScreenType {
    public static let summary = "Shows the card before it is sent."
    public static let presentation = ScreenPresentation(title: "Your card", events: ["send": .primary("Send")])

    public struct Props: Codable, Sendable {
        public var to: String
        public var message: String
    }

    @ScreenEvents
    public enum Output {
        case send
    }
}
