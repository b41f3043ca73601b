import CoordinatorApp
import Navigation
import Store

/// Everyone greeted, with the cards sent to them, on the connection the event commits on.
struct People: EventModel {
    let connection: any SQLConnection

    /// How the history lists them.
    enum Order: String, Codable {
        case name, times
    }

    /// Everyone greeted, by name or most greeted first.
    func all(by order: Order) throws -> [Person] {
        let sql =
            order == .name
            ? "SELECT name, times FROM greetings ORDER BY name"
            : "SELECT name, times FROM greetings ORDER BY times DESC, name"
        return try connection.query(sql) { Person(name: $0.string(0), times: $0.int(1)) }
    }

    /// What the person screen shows of `name`, or nil when they were forgotten.
    func find(_ name: String) throws -> PersonScreen.Props? {
        try connection.queryFirst("SELECT times, cards, last_card FROM greetings WHERE name = ?1", [.text(name)]) {
            PersonScreen.Props(name: name, times: $0.int(0), cards: $0.int(1), lastCard: $0.optionalString(2))
        }
    }

    /// Counts a card sent to `name`, and keeps its message.
    func sendCard(to name: String, message: String) throws {
        try connection.run(
            "UPDATE greetings SET cards = cards + 1, last_card = ?2 WHERE name = ?1", [.text(name), .text(message)])
    }

    /// Forgets `name`: their greetings and cards.
    func forget(_ name: String) throws {
        try connection.run("DELETE FROM greetings WHERE name = ?1", [.text(name)])
    }
}
