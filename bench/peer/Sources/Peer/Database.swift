import Crypto
import Foundation
import GRDB

/// The peer's SQLite file: WAL (GRDB's `DatabasePool`), `synchronous=FULL`, like coordinatord.
enum PeerDatabase {
    static func open(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS posts (id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES users(id),
                                                  text TEXT NOT NULL);
                CREATE INDEX IF NOT EXISTS posts_by_author ON posts(author_id, id);
                CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, token_hash BLOB NOT NULL, user_id INTEGER,
                                                     version INTEGER NOT NULL, next_screen INTEGER NOT NULL,
                                                     state BLOB NOT NULL);
                """)
        }
        return pool
    }

    static func tokenHash(_ token: String) -> Data { Data(SHA256.hash(data: Data(token.utf8))) }

    static func recentPosts(_ db: Database, author: Int? = nil, limit: Int = 20) throws -> [Post] {
        let filter = author == nil ? "" : "WHERE posts.author_id = ?"
        let rows = try Row.fetchAll(
            db, sql: """
                SELECT posts.id, posts.text, users.id AS author_id, users.name FROM posts
                JOIN users ON users.id = posts.author_id \(filter) ORDER BY posts.id DESC LIMIT ?
                """,
            arguments: StatementArguments(author.map { [$0, limit] } ?? [limit]))
        return rows.map { Post(author: Person(id: $0["author_id"], name: $0["name"]), id: $0["id"], text: $0["text"]) }
    }

    /// `count` signed-in sessions of one author with 25 posts; writes "id token top topName" lines.
    static func seed(_ pool: DatabasePool, count: Int, sessionsFile: String) throws {
        var lines = ""
        try pool.write { db in
            try db.execute(sql: "INSERT INTO users (id, name) VALUES (1, 'Author')")
            for n in 0..<25 {
                try db.execute(
                    sql: "INSERT INTO posts (author_id, text) VALUES (1, ?)",
                    arguments: ["Benchmark post \(n): a sentence of ordinary length to render."])
            }
            let author = Person(id: 1, name: "Author")
            let timeline = try recentPosts(db)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            for n in 0..<count {
                let id = "peer\(n)", token = UUID().uuidString + UUID().uuidString
                let state = State(
                    id: id,
                    stack: [Layer(selectedTab: "home", tabs: [
                        Tab(name: "home", screens: [Screen(
                            events: ["openPost", "openUser", "selectTab"], id: "s1", name: "timeline",
                            props: Props(posts: timeline))]),
                        Tab(name: "profile", screens: [Screen(
                            events: ["openPost", "selectTab"], id: "s2", name: "profile", props: Props(user: author))]),
                    ])],
                    top: "s1", user: author, version: 1)
                try db.execute(
                    sql: "INSERT INTO sessions (id, token_hash, user_id, version, next_screen, state) VALUES (?, ?, 1, 1, 3, ?)",
                    arguments: [id, tokenHash(token), try encoder.encode(state)])
                lines += "\(id) \(token) s1 timeline\n"
            }
        }
        try lines.write(toFile: sessionsFile, atomically: true, encoding: .utf8)
    }
}
