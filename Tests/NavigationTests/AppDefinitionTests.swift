import Foundation
import Navigation
import Testing

/// An app team's mistakes in putting an app together fail at once: when the app is built (and
/// the server, which calls `validate()`, refuses to start), or when the flow uses what the app
/// does not list; never later, when a session is restored or a client taps.
@Suite struct AppDefinitionTests {
    enum Plain: ScreenType {
        static let name = "plain"
        enum Output: ScreenOutput {
            case go, show, cover, replace, impostor
            static let events: [OutputEvent<Output>] = [
                .event("go", .go), .event("show", .show), .event("cover", .cover), .event("replace", .replace),
                .event("impostor", .impostor),
            ]
        }
    }

    /// Not in the app's `screens:`.
    enum Unlisted: ScreenType {
        static let name = "unlisted"
    }

    /// Named like `Plain`, which the app lists, but another type.
    enum Impostor: ScreenType {
        static let name = "plain"
    }

    struct Root: Coordinator {
        static let typeName = "Root"
        mutating func start(_ context: inout Context) throws { context.setRoot(Plain.self) }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
            switch try event.output(Plain.self) {
            case .go: try context.startChild(ChildKey("child"), Child())
            case .show: try context.push(Unlisted.self)
            case .cover: context.present(Unlisted.self)
            case .replace: context.setRoot(Unlisted.self)
            case .impostor: try context.push(Impostor.self)
            case nil: return .unhandled
            }
            return .handled
        }
    }

    /// Not in the app's `coordinators:`.
    struct Child: Coordinator {
        static let typeName = "Child"
        mutating func start(_ context: inout Context) throws { try context.push(Plain.self) }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
    }

    /// Another type under `Root`'s `typeName`.
    struct RootCopy: Coordinator {
        static let typeName = "Root"
        mutating func start(_ context: inout Context) throws {}
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
    }

    static let app = NavigationApp(screens: [Plain.self], coordinators: [Root.self], root: { _ in Root() })

    // MARK: Item 2: coordinators

    @Test func startingAChildTheAppDoesNotListFailsTheFlowAtOnce() throws {
        var driver = try Driver(app: Self.app)
        let before = driver.tree
        let message =
            "child coordinator child Child (typeName \"Child\") is not one of the app's coordinators: "
            + "list it in NavigationApp(coordinators:), or its sessions cannot be restored after a restart"
        #expect(throws: NavigationError(message)) { try driver.send("go") }
        #expect(driver.tree == before)

        let listed = NavigationApp(screens: [Plain.self], coordinators: [Root.self, Child.self], root: { _ in Root() })
        var working = try Driver(app: listed)
        try working.send("go")
        #expect(try listed.decodeSnapshot(listed.snapshot(working.tree)) == working.tree)
    }

    @Test func aRootTheAppDoesNotListFailsTheFirstStartAndValidation() throws {
        let app = NavigationApp(screens: [Plain.self], coordinators: [Child.self], root: { _ in Root() })
        let problem =
            "the root coordinator Root (typeName \"Root\") is not one of the app's coordinators: "
            + "list it in NavigationApp(coordinators:), or its sessions cannot be restored after a restart"
        #expect(throws: NavigationError(problem)) { try app.start(platform: .phone, environment: Environment()) }
        #expect(throws: AppDefinitionError(problems: [problem])) { try app.validate() }
    }

    @Test func twoScreensOrCoordinatorsUnderOneNameRefuseTheApp() throws {
        let app = NavigationApp(
            screens: [Plain.self, Unlisted.self, Impostor.self, Plain.self],
            coordinators: [Root.self, Child.self, RootCopy.self, Root.self], root: { _ in Root() })
        let problems = [
            "Plain and Impostor are both named \"plain\"; a screen's name is unique within an app",
            "coordinators Root and RootCopy share the typeName \"Root\"; "
                + "snapshots name a coordinator's type by it, so it is unique within an app",
        ]
        #expect(app.problems == problems)
        #expect(throws: AppDefinitionError(problems: problems)) { try app.validate() }
        // The first flow test of such an app fails with them, whatever it does.
        #expect(throws: AppDefinitionError(problems: problems)) { try Driver(app: app) }
        #expect(Self.app.problems.isEmpty)
        try Self.app.validate()
    }

    @Test func theServerRefusalNamesEveryProblem() {
        let error = AppDefinitionError(problems: ["one thing", "another"])
        #expect(error.description == "the app is not well defined:\n  - one thing\n  - another")
    }

    // MARK: Item 3: screens

    @Test func showingAScreenTheAppDoesNotListFailsTheFlowAtOnce() throws {
        let message =
            "Unlisted (\"unlisted\") is not one of the app's screens: list it in NavigationApp(screens:), "
            + "so that the server accepts its events and the catalog lists it"
        for event in ["show", "cover", "replace"] {
            var driver = try Driver(app: Self.app)
            let before = driver.tree
            #expect(throws: NavigationError(message), "\(event)") { try driver.send(event) }
            #expect(driver.tree == before)
        }
        var driver = try Driver(app: Self.app)
        #expect(
            throws: NavigationError(
                "Impostor (\"plain\") is not one of the app's screens: list it in NavigationApp(screens:), "
                    + "so that the server accepts its events and the catalog lists it")
        ) { try driver.send("impostor") }
    }

    @Test func aFirstScreenTheAppDoesNotListFailsTheStart() throws {
        struct Opener: Coordinator {
            static let typeName = "Opener"
            mutating func start(_ context: inout Context) throws { context.setRoot(Unlisted.self) }
            mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
        }
        let app = NavigationApp(screens: [Plain.self], coordinators: [Opener.self], root: { _ in Opener() })
        #expect(throws: NavigationError.self) { try app.start(platform: .web, environment: Environment()) }
    }

    // MARK: Item 4: presentation hints

    struct Doctor: Codable, Sendable {
        var id: Int
        var name: String
    }

    struct Visit: Codable, Sendable {
        var id: Int
        var when: Date
        var doctor: Doctor
    }

    struct VisitReference: Codable, Sendable {
        var visitId: Int
    }

    struct DoctorReference: Codable, Sendable {
        var doctorId: Int
    }

    struct PatientProps: Codable, Sendable {
        var patientName: String
        var visits: [Visit]
        var note: String?
    }

    enum PatientOutput: ScreenOutput {
        case openVisit(VisitReference), openDoctor(DoctorReference), cancelVisit
        static let events: [OutputEvent<PatientOutput>] = [
            .event("openVisit", PatientOutput.openVisit), .event("openDoctor", PatientOutput.openDoctor),
            .event("cancelVisit", .cancelVisit),
        ]
    }

    /// Every hint names something the screen has: nested members of list items included.
    enum Patient: ScreenType {
        static let name = "patient"
        typealias Props = PatientProps
        typealias Output = PatientOutput
        static let presentation = ScreenPresentation(
            fields: [
                "patientName": .label("Name"), "when": .init(display: .timestamp), "name": .label("Doctor"),
                "doctorId": .hidden,
            ],
            events: ["cancelVisit": .destructive("Cancel the visit")],
            itemActions: [
                ItemAction("visits", opens: "openVisit", with: "visitId", title: "when"),
                ItemAction("visits.doctor", opens: "openDoctor", with: "doctorId", title: "name"),
            ])
    }

    /// The same hints with typos.
    enum MisspelledPatient: ScreenType {
        static let name = "patient.misspelled"
        typealias Props = PatientProps
        typealias Output = PatientOutput
        static let presentation = ScreenPresentation(
            fields: ["patientNmae": .label("Name"), "when": .init(display: .timestamp)],
            events: ["cancelVist": .destructive("Cancel the visit"), "back": .secondary("Back")],
            itemActions: [
                ItemAction("visits", opens: "openVisit", with: "visitID", title: "when"),
                ItemAction("visits.doctor", opens: "openDoctr", with: "doctorId", title: "name"),
                ItemAction("vists", opens: "openVisit", with: "visitId"),
                ItemAction("visits.doctor", opens: "openDoctor", with: "doctorId", title: "nmae"),
                ItemAction("patientName", opens: "openVisit", with: "visitId"),
            ])
    }

    @Test func presentationHintsThatNameNothingRefuseTheApp() throws {
        let app = NavigationApp(
            screens: [Plain.self, Patient.self, MisspelledPatient.self], coordinators: [Root.self], root: { _ in Root() })
        let screen = "screen \"patient.misspelled\" (MisspelledPatient)"
        let names = "doctor, doctorId, id, name, note, patientName, visitId, visits, when"
        let problems = [
            "\(screen): presentation field \"patientNmae\" is no prop or payload field; it has \(names)",
            "\(screen): presentation event \"back\" is not one of its events; it has openVisit, openDoctor, cancelVisit",
            "\(screen): presentation event \"cancelVist\" is not one of its events; it has openVisit, openDoctor, cancelVisit",
            "\(screen): item action at \"visits\" puts the key into \"visitID\", which is no field of \"openVisit\"; "
                + "it has visitId",
            "\(screen): item action at \"visits.doctor\" opens \"openDoctr\", which is not one of its events; "
                + "it has openVisit, openDoctor, cancelVisit",
            "\(screen): item action at \"vists\" names \"vists\", but the props have no such member",
            "\(screen): item action at \"visits.doctor\" takes its title from \"nmae\", which its items do not have",
            "\(screen): item action at \"patientName\" leads to a single value, not a list or an object",
        ]
        #expect(app.problems == problems)
        #expect(throws: AppDefinitionError(problems: problems)) { try app.validate() }
    }

    @Test func aSystemEventDeclaredByAScreenRefusesTheApp() {
        enum Backwards: ScreenType {
            static let name = "backwards"
            enum Output: ScreenOutput {
                case back
                static let events: [OutputEvent<Output>] = [.event("back", .back)]
            }
        }
        let app = NavigationApp(screens: [Backwards.self], coordinators: [Root.self], root: { _ in Root() })
        #expect(app.problems == ["screen \"backwards\" declares \"back\", a system event every screen has already"])
    }
}
