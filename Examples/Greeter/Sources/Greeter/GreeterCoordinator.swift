import CoordinatorApp
import Navigation

/// The Greet tab: asks for a name, counts the greeting, pushes the greeting screen.
struct GreeterCoordinator: Coordinator {
    static let screens: [any ScreenType.Type] = [HelloScreen.self, GreetingScreen.self]
    /// A name is stored and counted: 1 to 50 characters, at most 200 bytes and 4 accents on a letter.
    static let nameLimit = TextLimit(characters: 1...50)

    mutating func start(_ context: inout Context) throws {
        try context.push(HelloScreen.self, .init())
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        switch try event.output(HelloScreen.self) {
        case .greet(let name)?:
            let name = name.wrappedValue.trimmingCharacters(in: .whitespaces)
            guard Self.nameLimit.violation(in: name) == nil else {
                // In the language of the client that sent the event (section 15).
                let error = context.localized(name.isEmpty ? "Tell me your name." : "Tell me a name of up to 50 characters.")
                try context.update(event.screen.id, as: HelloScreen.self) { $0.error = error }
                return .handled
            }
            let times = try context.dependency(Greetings.self).greet(name)
            try context.push(GreetingScreen.self, .init(text: "Hello, \(name)!", times: times))
            return .handled
        case nil:
            // Not an event of its screens: up to the parent coordinator.
            return .unhandled
        }
    }
}
