import Foundation
import GRDB

/// Why an event was refused, with the status it answers.
enum Refusal: Error {
    case notFound, unauthorized, unknownEvent
    case stale(Data)
}

/// One navigation event in one write transaction: read the session, check its token and that the
/// event is for the top screen, change the stack (reading what a pushed screen shows), store it.
/// Returns the new State as stored.
func apply(_ body: EventBody, to id: String, token: String, in pool: DatabasePool) async throws -> Data {
    try await pool.write { db -> Data in
        guard let row = try Row.fetchOne(
            db, sql: "SELECT token_hash, next_screen, state FROM sessions WHERE id = ?", arguments: [id])
        else { throw Refusal.notFound }
        guard (row["token_hash"] as Data) == PeerDatabase.tokenHash(token) else { throw Refusal.unauthorized }
        let stored: Data = row["state"]
        var state = try JSONDecoder().decode(State.self, from: stored)
        guard body.screen == state.top else { throw Refusal.stale(stored) }
        var nextScreen: Int = row["next_screen"]
        var layer = state.stack[0]
        let selected = layer.tabs.firstIndex { $0.name == layer.selectedTab } ?? 0
        func push(_ name: String, _ events: [String], _ props: Props) {
            layer.tabs[selected].screens.append(Screen(events: events, id: "s\(nextScreen)", name: name, props: props))
            nextScreen += 1
        }
        switch body.event {
        case "openPost":
            guard let postID = body.payload?.postId, let post = try Row.fetchOne(
                db, sql: "SELECT posts.id, posts.text, users.id AS author_id, users.name FROM posts JOIN users ON users.id = posts.author_id WHERE posts.id = ?",
                arguments: [postID])
            else { throw Refusal.unknownEvent }
            push("post", ["back", "openUser"], Props(post: Post(
                author: Person(id: post["author_id"], name: post["name"]), id: post["id"], text: post["text"])))
        case "openUser":
            guard let userID = body.payload?.userId,
                  let name = try String.fetchOne(db, sql: "SELECT name FROM users WHERE id = ?", arguments: [userID])
            else { throw Refusal.unknownEvent }
            push("user", ["back", "openPost"], Props(posts: try PeerDatabase.recentPosts(db, author: userID),
                                                     user: Person(id: userID, name: name)))
        case "back":
            guard layer.tabs[selected].screens.count > 1 else { throw Refusal.unknownEvent }
            layer.tabs[selected].screens.removeLast()
        case "selectTab":
            guard let tab = body.payload?.tab, layer.tabs.contains(where: { $0.name == tab }) else {
                throw Refusal.unknownEvent
            }
            layer.selectedTab = tab
        default:
            throw Refusal.unknownEvent
        }
        state.stack[0] = layer
        let shown = layer.tabs.first { $0.name == layer.selectedTab } ?? layer.tabs[0]
        state.top = shown.screens[shown.screens.count - 1].id
        state.version += 1
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(state)
        try db.execute(
            sql: "UPDATE sessions SET version = ?, next_screen = ?, state = ? WHERE id = ?",
            arguments: [state.version, nextScreen, encoded, id])
        return encoded
    }
}
