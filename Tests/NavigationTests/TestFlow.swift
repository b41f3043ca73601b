import Navigation

/// A small app that uses every navigation operation, for the runtime's tests.
enum TestScreens {
    static let home = ScreenDefinition(
        "home", props: [.string("note", optional: true)],
        events: [
            EventDeclaration("openDetail", [.integer("item")]), EventDeclaration("startWizard"),
            EventDeclaration("compose"), EventDeclaration("alert"), EventDeclaration("showTabs"),
            EventDeclaration("nobodyHandles"),
        ])
    static let detail = ScreenDefinition(
        "detail", props: [.integer("item")],
        events: [EventDeclaration("next"), EventDeclaration("popToRoot"), EventDeclaration("popToFirstDetail")])
    static let step1 = ScreenDefinition(
        "wizard.name", props: [.string("name"), .string("error", optional: true)],
        events: [EventDeclaration("next", [.string("name")])])
    static let step2 = ScreenDefinition(
        "wizard.age", props: [.string("name")],
        events: [EventDeclaration("finish", [.integer("age")]), EventDeclaration("cancel")])
    static let form = ScreenDefinition(
        "wizard.form", props: [.string("error", optional: true)],
        events: [EventDeclaration("submit", [.string("name"), .integer("age")])])
    static let sheet = ScreenDefinition(
        "sheet", props: [.string("text")], events: [EventDeclaration("save", [.string("text")]), EventDeclaration("close"), EventDeclaration("cancel")])
    static let confirm = ScreenDefinition(
        "confirm", props: [.string("message")], events: [EventDeclaration("yes"), EventDeclaration("no")])
    static let page = ScreenDefinition(
        "tabs.page", props: [.string("tab"), .integer("depth")],
        events: [EventDeclaration("deeper"), EventDeclaration("leave")])

    static let all = [home, detail, step1, step2, form, sheet, confirm, page]

    static let app = NavigationApp(
        screens: all,
        coordinators: [TestRoot.self, Wizard.self, TabletWizard.self, SheetFlow.self, TabFlow.self],
        root: { _ in TestRoot() })
}

/// The app coordinator: shows `home`, pushes details, starts the wizard (swapped on tablets),
/// presents a sheet flow and an alert, and swaps the root for tabs and back.
struct TestRoot: Coordinator {
    static let typeName = "TestRoot"
    var home: ScreenID?
    var wizardsFinished = 0
    var lastOutput: String?

    mutating func start(_ context: inout Context) throws {
        home = context.setRoot(TestScreens.home, ["note": .optional(context.user.map { "hello \($0.displayName)" })])
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        switch (event.screen.name, event.name) {
        case ("home", "openDetail"):
            try context.push(TestScreens.detail, ["item": .int(event.payload.int("item"))])
        case ("detail", "next"):
            try context.push(TestScreens.detail, ["item": .int((event.screen.props["item"]?.intValue ?? 0) + 1)])
        case ("detail", "popToRoot"):
            try context.popToRoot()
        case ("detail", "popToFirstDetail"):
            if let first = context.ownScreens.first(where: { $0.name == "detail" }) { try context.popTo(first.id) }
        case ("home", "startWizard"):
            // Khanlou's per-platform swap: tablets get the one-screen form.
            if context.platform == .tablet {
                try context.startChild(ChildKey("wizard"), TabletWizard())
            } else {
                try context.startChild(ChildKey("wizard"), Wizard())
            }
        case ("home", "compose"):
            try context.startChild(ChildKey("sheet"), SheetFlow(), placement: .modal)
        case ("home", "alert"):
            context.present(TestScreens.confirm, ["message": "Sure?"], as: .alert)
        case ("confirm", _):
            try context.dismiss()
            if event.name == "yes", let home { try context.updateProps(home) { $0["note"] = "confirmed" } }
        case ("home", "showTabs"):
            context.setRootTabs([TabSpec(TabKey("a"), title: "A"), TabSpec(TabKey("b"), title: "B")], selected: TabKey("a"))
            try context.startChild(ChildKey("a"), TabFlow(tab: "a"), placement: .tab(TabKey("a")))
            try context.startChild(ChildKey("b"), TabFlow(tab: "b"), placement: .tab(TabKey("b")))
        case ("tabs.page", "leave"):
            // Bubbled up from a tab flow: replace the tabs with home again.
            context.stopChild(ChildKey("a"))
            context.stopChild(ChildKey("b"))
            try start(&context)
        default:
            return .unhandled
        }
        return .handled
    }

    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        lastOutput = "\(key):\(Self.name(of: output))"
        guard let home else { return }
        if case .done(let name, _)? = output.value(as: Wizard.Output.self) {
            wizardsFinished += 1
            context.signIn(SessionUser(id: Int64(wizardsFinished), displayName: name))
            try context.updateProps(home) { $0["note"] = .string("welcome \(name)") }
        } else if case .saved(let text)? = output.as(SheetFlow.self) {
            try context.updateProps(home) { $0["note"] = .string(text) }
        } else {
            try context.updateProps(home) { $0["note"] = .string("\(key) \(Self.name(of: output))") }
        }
    }

    /// The output's case name, for notes: children report typed values, not names.
    private static func name(of output: ChildOutput) -> String {
        if output.isCancelled { return "cancelled" }
        if let output = output.value(as: Wizard.Output.self) { return output.name }
        if let output = output.as(SheetFlow.self) { return output.name }
        return "?"
    }
}

/// Kulman's registration: two steps and a draft that survives `back`.
struct Wizard: Coordinator {
    static let typeName = "Wizard"

    enum Output: Equatable {
        case done(name: String, age: Int)
        case aborted

        var name: String {
            switch self {
            case .done: "done"
            case .aborted: "aborted"
            }
        }
    }
    var draftName = ""
    var nameScreen: ScreenID?

    mutating func start(_ context: inout Context) throws {
        nameScreen = try context.push(TestScreens.step1, ["name": .string(draftName)])
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        switch (event.screen.name, event.name) {
        case ("wizard.name", "next"):
            let name = event.payload.string("name")
            guard !name.isEmpty else {
                try context.updateProps(event.screen.id) { $0["error"] = "A name is required." }
                return .handled
            }
            draftName = name
            try context.updateProps(event.screen.id) { $0["name"] = .string(name); $0["error"] = .null }
            try context.push(TestScreens.step2, ["name": .string(name)])
        case ("wizard.age", "finish"):
            finish(.done(name: draftName, age: event.payload.int("age")), &context)
        case ("wizard.age", "cancel"):
            finish(.aborted, &context)
        default:
            return .unhandled
        }
        return .handled
    }

    mutating func screenRemoved(_ screen: Screen, _ context: inout Context) {
        // Back from the age step: the name step shows the draft, as entered.
        if screen.name == "wizard.age", let nameScreen {
            try? context.updateProps(nameScreen) { $0["name"] = .string(draftName) }
        }
    }
}

/// The tablet variant of the wizard: one form.
struct TabletWizard: Coordinator {
    static let typeName = "TabletWizard"
    typealias Output = Wizard.Output

    mutating func start(_ context: inout Context) throws {
        try context.push(TestScreens.form)
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard event.name == "submit" else { return .unhandled }
        finish(.done(name: event.payload.string("name"), age: 0), &context)
        return .handled
    }
}

/// A flow presented modally that finishes with its output (twocentstudios' settings coordinator).
struct SheetFlow: Coordinator {
    static let typeName = "SheetFlow"

    enum Output: Equatable {
        /// A case of its own named like the runtime's cancellation: the parent tells them apart.
        case saved(text: String), closed, cancelled

        var name: String {
            switch self {
            case .saved: "saved"
            case .closed: "closed"
            case .cancelled: "cancelled by the flow"
            }
        }
    }

    mutating func start(_ context: inout Context) throws {
        try context.push(TestScreens.sheet, ["text": ""])
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        switch event.name {
        case "save": finish(.saved(text: event.payload.string("text")), &context)
        case "close": finish(.closed, &context)
        case "cancel": finish(.cancelled, &context)
        default: return .unhandled
        }
        return .handled
    }
}

/// One tab's flow: pages that push without end; `leave` is left to the parent.
struct TabFlow: Coordinator {
    static let typeName = "TabFlow"
    var tab: String
    var selections = 0

    mutating func start(_ context: inout Context) throws {
        try context.push(TestScreens.page, ["tab": .string(tab), "depth": 1])
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard event.name == "deeper" else { return .unhandled }
        try context.push(TestScreens.page, ["tab": .string(tab), "depth": .int((event.screen.props["depth"]?.intValue ?? 0) + 1)])
        return .handled
    }
}
