import Navigation
import NavigationMacros
import Testing

/// A screen whose events are declared with `@ScreenEvents`: every kind of case it handles.
enum Clinics: ScreenType {
    static let name = "clinics"

    struct Props: Codable, Sendable {
        var note: String?
    }

    struct Filter: Codable, Sendable, Equatable {
        var city: String
        var open: Bool?
    }

    @ScreenEvents
    enum Output: Equatable {
        case filter(Filter)
        case refresh
        case openClinic(id: Int)
        case move(from: Int, to: Int)
        case search(text: String?, page: Int?)
        case signIn(email: Identifier, password: Password)
        case `default`(in: Int)
    }
}

/// An output that still names its conformance, as one converted from the older form may.
enum Rooms: ScreenType {
    static let name = "rooms"

    @ScreenEvents
    enum Output: ScreenOutput, Equatable {
        case book(room: Int, note: String?)
    }
}

/// The same kind of screen declared the older way, with each wire name spelled out.
enum Spelled: ScreenType {
    static let name = "spelled"

    enum Output: ScreenOutput, Equatable {
        case filter(Clinics.Filter)
        case refresh
        static let events: [OutputEvent<Output>] = [.event("filter", Output.filter), .event("refresh", .refresh)]
    }
}

/// Switches on its screen's outputs in `handle`, with no input enum of its own; writes what it
/// got into the screen's note.
struct ClinicsCoordinator: Coordinator {
    static let typeName = "Clinics"

    mutating func start(_ context: inout Context) throws {
        try context.setRoot(Clinics.self, .init())
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        let note: String
        switch try event.output(Clinics.self) {
        case .openClinic(let id)?: note = "clinic \(id)"
        case .move(let from, let to)?: note = "\(from) to \(to)"
        case .search(let text, let page)?: note = "search \(text ?? "-") \(page ?? 0)"
        case .signIn(let email, _)?: note = "hello \(email.wrappedValue)"
        case .filter(let filter)?: note = "in \(filter.city)"
        case .refresh?, .default?: note = "\(event.name)"
        case nil: return .unhandled
        }
        try context.update(event.screen.id, as: Clinics.self) { $0.note = note }
        return .handled
    }
}

@Suite struct ScreenEventsTests {
    let app = NavigationApp(screens: [Clinics.self], coordinators: [ClinicsCoordinator.self], root: { _ in ClinicsCoordinator() })

    /// Every output above, each with the payload a client sends for it.
    static let sent: [(Clinics.Output, String, JSONValue)] = [
        (.filter(.init(city: "Oslo", open: nil)), "filter", ["city": "Oslo"]),
        (.refresh, "refresh", .null),
        (.openClinic(id: 3), "openClinic", ["id": 3]),
        (.move(from: 1, to: 2), "move", ["from": 1, "to": 2]),
        (.search(text: nil, page: 2), "search", ["page": 2]),
        (.signIn(email: "ada@example.com", password: "secret"), "signIn", ["email": "ada@example.com", "password": "secret"]),
        (.default(in: 1), "default", ["in": 1]),
    ]

    @Test func theCatalogNamesEachEventAfterItsCaseWithItsLabelsAsFields() {
        #expect(
            app.screens["clinics"]?.events == [
                EventDeclaration("filter", [.string("city"), .boolean("open", optional: true)]),
                EventDeclaration("refresh"),
                EventDeclaration("openClinic", [.integer("id")]),
                EventDeclaration("move", [.integer("from"), .integer("to")]),
                EventDeclaration("search", [.string("text", optional: true), .integer("page", optional: true)]),
                EventDeclaration("signIn", [.identifier("email"), .password("password")]),
                EventDeclaration("default", [.integer("in")]),
            ])
    }

    @Test(arguments: sent.indices)
    func aTypedSendCarriesTheCasesPayloadAndComesBackAsTheSameOutput(_ index: Int) throws {
        let (output, name, payload) = Self.sent[index]
        let incoming = try IncomingEvent(Clinics.self, output, on: "s1")
        #expect(incoming == IncomingEvent(screen: "s1", name: name, payload: payload))
        // Validated as a client's payload, then decoded: the very output again.
        let event = try ScreenEvent(from: Clinics.self, incoming.name, incoming.payload)
        #expect(try event.output(Clinics.self) == output)
    }

    @Test func aLabelledPayloadIsValidatedAndDecodedInAFlow() throws {
        var tree = try app.start(platform: .web, environment: Environment())
        try app.apply(IncomingEvent(screen: "s1", name: "move", payload: ["from": 4, "to": 7]), to: &tree, environment: Environment())
        #expect(tree.top?.props == ["note": "4 to 7"])
        try app.apply(IncomingEvent(Clinics.self, .search(text: "eye", page: nil), on: "s1"), to: &tree, environment: Environment())
        #expect(tree.top?.props == ["note": "search eye 0"])
    }

    @Test func aWrongLabelledFieldIsA422AndChangesNothing() throws {
        var tree = try app.start(platform: .web, environment: Environment())
        let before = tree
        #expect(throws: EventRejection.invalidPayload([FieldError(field: "from", message: "must be an integer")])) {
            try app.apply(
                IncomingEvent(screen: "s1", name: "move", payload: ["from": "one", "to": 7]), to: &tree,
                environment: Environment())
        }
        #expect(
            throws: EventRejection.invalidPayload([
                FieldError(field: "to", message: "is required"), FieldError(field: "id", message: "is not a field of move"),
            ])
        ) {
            try app.apply(
                IncomingEvent(screen: "s1", name: "move", payload: ["from": 1, "id": 7]), to: &tree, environment: Environment())
        }
        #expect(tree == before)
    }

    @Test func aLabelledIdentifierKeepsItsRule() throws {
        let bidiOverride = "ada\u{202E}@example.com"
        #expect(
            throws: EventRejection.invalidPayload([
                FieldError(field: "email", message: "must not contain control, invisible or bidirectional-control characters")
            ])
        ) {
            try ScreenEvent(from: Clinics.self, "signIn", ["email": .string(bidiOverride), "password": "\u{202E}"])
        }
    }

    @Test func anOutputThatNamesItsConformanceGetsTheSameEvents() throws {
        #expect(Rooms.Output.events.map(\.name) == ["book"])
        let incoming = try IncomingEvent(Rooms.self, .book(room: 2, note: nil), on: "s1")
        #expect(incoming == IncomingEvent(screen: "s1", name: "book", payload: ["room": 2]))
        #expect(try ScreenEvent(from: Rooms.self, "book", ["room": 2]).output(Rooms.self) == .book(room: 2, note: nil))
    }

    @Test func theSpelledOutFormStillWorks() throws {
        let filter = try IncomingEvent(Spelled.self, .filter(.init(city: "Oslo", open: true)), on: "s1")
        #expect(filter == IncomingEvent(screen: "s1", name: "filter", payload: ["city": "Oslo", "open": true]))
        #expect(try IncomingEvent(Spelled.self, .refresh, on: "s1") == IncomingEvent(screen: "s1", name: "refresh"))
        let event = try ScreenEvent(from: Spelled.self, "filter", ["city": "Oslo"])
        #expect(try event.output(Spelled.self) == .filter(.init(city: "Oslo", open: nil)))
    }
}
