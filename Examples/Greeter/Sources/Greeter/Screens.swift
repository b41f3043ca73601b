import Navigation
import NavigationMacros

/// Asks for a name.
public enum HelloScreen: ScreenType {
    public static let summary = "Asks for a name."

    public struct Props: Codable, Sendable {
        public var error: String?
    }

    @ScreenEvents
    public enum Output {
        case greet(name: Identifier)
    }
}

/// Greets the visitor, and says how often they were greeted.
public enum GreetingScreen: ScreenType {
    public static let summary = "Greets the visitor."

    public struct Props: Codable, Sendable {
        public var text: String
        public var times: Int
    }
}
