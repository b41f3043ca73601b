import CoordinatorApp
import Navigation
import Store

/// The greetings model, on the connection the event commits on.
struct Greetings: EventModel {
    let connection: any SQLConnection

    /// Counts a greeting of `name`; returns how often they were greeted so far.
    func greet(_ name: String) throws -> Int {
        try connection.run(
            """
            INSERT INTO greetings (name, times) VALUES (?1, 1)
            ON CONFLICT (name) DO UPDATE SET times = times + 1
            """, [.text(name)])
        return try connection.queryFirst("SELECT times FROM greetings WHERE name = ?1", [.text(name)]) { $0.int(0) } ?? 0
    }
}
