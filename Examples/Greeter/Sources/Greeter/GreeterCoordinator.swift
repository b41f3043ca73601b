import Navigation

/// Asks for a name, counts the greeting, pushes the greeting screen.
struct GreeterCoordinator: InputMapping {
    static let typeName = "Greeter"

    enum Input: Equatable {
        case greet(String)
    }

    /// Pure: a screen's output to this coordinator's input.
    static func mapIO(_ event: ScreenEvent) throws -> Input? {
        guard case .greet(let visitor) = try event.output(HelloScreen.self) else { return nil }
        let name = visitor.name.trimmingCharacters(in: .whitespaces)
        return .greet(name)
    }

    mutating func start(_ context: inout Context) throws {
        try context.setRoot(HelloScreen.self, .init())
    }

    mutating func handle(_ input: Input, _ context: inout Context) throws {
        guard case .greet(let name) = input else { return }
        guard !name.isEmpty else {
            let hello = context.ownScreens[0].id
            try context.update(hello, as: HelloScreen.self) { $0.error = "Tell me your name." }
            return
        }
        let times = try context.environment.require(Greetings.self).greet(name)
        try context.push(GreetingScreen.self, .init(text: "Hello, \(name)!", times: times))
    }
}
