import Navigation

/// Asks for a name, counts the greeting, pushes the greeting screen.
struct GreeterCoordinator: InputMapping {
    static let typeName = "Greeter"
    /// A name is stored and counted: 1 to 50 characters, at most 200 bytes and 4 accents on a letter.
    static let nameLimit = TextLimit(characters: 1...50)

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
        guard Self.nameLimit.violation(in: name) == nil else {
            let hello = context.ownScreens[0].id
            try context.update(hello, as: HelloScreen.self) {
                $0.error = name.isEmpty ? "Tell me your name." : "Tell me a name of up to 50 characters."
            }
            return
        }
        let times = try context.environment.require(Greetings.self).greet(name)
        try context.push(GreetingScreen.self, .init(text: "Hello, \(name)!", times: times))
    }
}
