import CoordinatorApp
import Navigation

/// The History tab: everyone greeted, a person pushed from the list, a card to them written in
/// a modal child, and forgetting them after a confirm alert.
struct HistoryCoordinator: Coordinator {
    static let children: [any Coordinator.Type] = [CardCoordinator.self]
    static let screens: [any ScreenType.Type] = [HistoryScreen.self, PersonScreen.self, ForgetAlert.self]
    /// How the list is sorted. Added after the first release: sessions stored before it have no
    /// `order`, so it is optional, and nil means the first release's order, by name.
    var order: People.Order?

    mutating func start(_ context: inout Context) throws {
        try context.push(HistoryScreen.self, try list(&context))
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        let people = try context.dependency(People.self)
        switch try event.output(HistoryScreen.self) {
        case .show(let name)?:
            guard let person = try people.find(name) else { return .handled }
            try context.push(PersonScreen.self, person)
            return .handled
        case .sort?:
            order = order == .times ? .name : .times
            try show(event.screen, &context)
            return .handled
        case nil:
            break
        }
        // Which person a screen is about is in its own props, read from the screen that sent the event.
        if let output = try event.output(PersonScreen.self), let person = context.props(of: event.screen.id, as: PersonScreen.self) {
            switch output {
            case .writeCard:
                try context.startChild(.card, CardCoordinator(to: person.name), placement: .modal)
            case .forget:
                let alert = ForgetAlert.Props(name: person.name, message: "Forget \(person.name) and their cards?")
                try context.present(ForgetAlert.self, alert, as: .alert)
            }
            return .handled
        }
        if let output = try event.output(ForgetAlert.self), let alert = context.props(of: event.screen.id, as: ForgetAlert.self) {
            try context.dismiss()
            if case .forget = output {
                try people.forget(alert.name)
                try context.pop()
            }
            return .handled
        }
        return .unhandled
    }

    /// The card child finished: it was sent, or the user dismissed its sheet (the runtime's
    /// cancellation), and nothing is sent.
    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        if case .sent(let to, let message)? = output.as(CardCoordinator.self) {
            try context.dependency(People.self).sendCard(to: to, message: message)
        }
    }

    /// One of its screens is on top again (its tab selected, a pop, the alert or the card gone):
    /// what it shows may have changed meanwhile.
    mutating func screenAppeared(_ screen: Screen, _ context: inout Context) throws {
        try show(screen, &context)
    }

    /// Shows `screen` anew, from the database.
    private func show(_ screen: Screen, _ context: inout Context) throws {
        if screen.name == HistoryScreen.name {
            let props = try list(&context)
            try context.update(screen.id, as: HistoryScreen.self) { $0 = props }
        } else if let shown = context.props(of: screen.id, as: PersonScreen.self),
            let person = try context.dependency(People.self).find(shown.name)
        {
            try context.update(screen.id, as: PersonScreen.self) { $0 = person }
        }
    }

    private func list(_ context: inout Context) throws -> HistoryScreen.Props {
        let order = order ?? .name
        let people = try context.dependency(People.self).all(by: order)
        return .init(people: people, sortedBy: order == .name ? "name" : "greetings")
    }
}
