import Navigation

/// Asks for a name.
public enum HelloScreen: ScreenType {
    public static let name = "hello"
    public static let summary = "Asks for a name."

    public struct Props: Codable, Sendable {
        public var error: String?
    }

    public struct Visitor: Codable, Sendable {
        @Identifier public var name: String
    }

    public enum Output: ScreenOutput {
        case greet(Visitor)
        public static let events: [OutputEvent<Output>] = [.event("greet", Output.greet)]
    }
}

/// Greets the visitor, and says how often they were greeted.
public enum GreetingScreen: ScreenType {
    public static let name = "greeting"
    public static let summary = "Greets the visitor."

    public struct Props: Codable, Sendable {
        public var text: String
        public var times: Int
    }
}
