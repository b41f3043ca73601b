import Navigation
import Store

/// The app: one screen of notes, whose texts are unique.
enum Notes {
    static let navigation = NavigationApp(
        screens: [NotesScreen.self], coordinators: [NotesCoordinator.self], root: { _ in NotesCoordinator() })

    static func migrations(for dialect: SQLDialect) -> [Migration] {
        let type = dialect == .sqlite ? "INTEGER PRIMARY KEY" : "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
        return [
            Migration(
                scope: "notes", version: 1, name: "notes",
                sql: "CREATE TABLE notes (id \(type), text TEXT NOT NULL UNIQUE)")
        ]
    }
}

/// Shows how many notes there are; adds one, or fails on purpose.
enum NotesScreen: ScreenType {
    static let name = "notes"
    static let summary = "Notes, added by their text."

    struct Props: Codable, Sendable {
        var count: Int
    }

    struct Note: Codable, Sendable {
        var text: String
    }

    enum Output: ScreenOutput {
        case add(Note)
        case typo
        case fail
        static let events: [OutputEvent<Output>] = [
            .event("add", Output.add), .event("typo", .typo), .event("fail", .fail),
        ]
    }
}

/// The notes table, on the connection the event commits on.
struct NoteStore {
    let connection: any SQLConnection

    /// Adds a note: adding one text twice violates the table's UNIQUE constraint.
    func add(_ text: String) throws -> Int {
        try connection.run("INSERT INTO notes (text) VALUES (?1)", [.text(text)])
        return try connection.queryFirst("SELECT count(*) FROM notes") { $0.int(0) } ?? 0
    }
}

/// The error a flow of this app throws on purpose.
struct NotesFailure: Error {}

/// `add` stores a note (a repeated text is the app's bug: a constraint the database enforces);
/// `typo` runs a statement with a syntax error; `fail` throws an error of the app's own.
struct NotesCoordinator: Coordinator {
    static let typeName = "Notes"

    mutating func start(_ context: inout Context) throws {
        try context.setRoot(NotesScreen.self, .init(count: 0))
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard let output = try event.output(NotesScreen.self) else { return .unhandled }
        let notes = try context.environment.require(NoteStore.self)
        switch output {
        case .add(let note):
            let count = try notes.add(note.text)
            try context.update(event.screen.id, as: NotesScreen.self) { $0.count = count }
        case .typo:
            try notes.connection.run("SELEC count(*) FROM notes", [])
        case .fail:
            throw NotesFailure()
        }
        return .handled
    }
}
