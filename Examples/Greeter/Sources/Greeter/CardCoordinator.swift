import Navigation

/// A card to someone greeted, in two steps on a modal sheet: write it, then read it over and
/// send it. It only collects the card: its parent sends it.
struct CardCoordinator: Coordinator {
    static let screens: [any ScreenType.Type] = [CardScreen.self, CardPreviewScreen.self]
    /// A message: 1 to 200 characters.
    static let messageLimit = TextLimit(characters: 1...200)

    /// What its parent hears when the user sends the card. A sheet the user dismissed reaches
    /// the parent as the runtime's cancellation (`ChildOutput.isCancelled`), not as an output.
    enum Output: Equatable {
        case sent(to: String, message: String)
    }
    let to: String

    mutating func start(_ context: inout Context) throws {
        try context.push(CardScreen.self, .init(to: to))
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        if case .next(let message)? = try event.output(CardScreen.self) {
            let message = message.trimmingCharacters(in: .whitespacesAndNewlines)
            // The step keeps what was typed, for `back` from the preview or a message to fix.
            let error = Self.messageLimit.violation(in: message) == nil ? nil : "Write 1 to 200 characters."
            try context.update(event.screen.id, as: CardScreen.self) { $0 = .init(to: to, message: message, error: error) }
            if error == nil { try context.push(CardPreviewScreen.self, .init(to: to, message: message)) }
            return .handled
        }
        if case .send? = try event.output(CardPreviewScreen.self),
            let card = context.props(of: event.screen.id, as: CardPreviewScreen.self)
        {
            finish(.sent(to: to, message: card.message), &context)
            return .handled
        }
        return .unhandled
    }
}
