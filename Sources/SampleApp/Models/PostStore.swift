import Foundation
import Navigation
import SignInKit
import Store

/// Posts, rendered straight into screen props.
///
/// Other users write what these lists show, so what one list holds is bounded, whatever they
/// wrote: at most `pageSize` posts and `pageBytes` of text, each post and name read trimmed to
/// `Rules.post` and `AccountRules.displayName` (text stored before those limits included). A session's
/// state limit can then only be reached by what the session itself opens and loads.
struct PostStore {
    let connection: any SQLConnection
    static let pageSize = 20
    /// Bytes the texts and author names of one list may take as JSON: an eighth of the default
    /// 128 KiB state limit, so a session can hold several lists and its own screens beside them.
    static let pageBytes = 16 * 1024

    // A valid post has at most 2,000 bytes (code points) and a name 200: SQL reads one more of
    // each, so a longer one is still seen to be cut, and never reads a huge row whole.
    private static let select = """
        SELECT p.id, substr(p.text, 1, 2001), p.created_at, u.id, substr(u.display_name, 1, 201)
        FROM posts p JOIN users u ON u.id = p.author_id
        """

    func create(authorID: Int64, text: String, now: Int64) throws -> Int64 {
        try connection.queryFirst(
            "INSERT INTO posts (author_id, text, created_at) VALUES (?1, ?2, ?3) RETURNING id",
            [.integer(authorID), .text(text), .integer(now)]
        ) { $0.int64(0) } ?? 0
    }

    /// One page of everyone's posts, newest first, older than `cursor` if given; and the next cursor.
    func timeline(before cursor: Int?) throws -> (posts: [PostView], nextCursor: Int?) {
        let rows = try connection.query(
            Self.select + " WHERE p.id < ?1 ORDER BY p.id DESC LIMIT ?2", [.int(cursor ?? Int.max), .int(Self.pageSize + 1)],
            Self.post)
        return page(rows)
    }

    /// One page of `authorID`'s posts, newest first.
    func posts(by authorID: Int64) throws -> [PostView] {
        let rows = try connection.query(
            Self.select + " WHERE p.author_id = ?1 ORDER BY p.id DESC LIMIT ?2", [.integer(authorID), .int(Self.pageSize)],
            Self.post)
        return page(rows).posts
    }

    func post(id: Int) throws -> PostView? {
        try connection.queryFirst(Self.select + " WHERE p.id = ?1", [.int(id)], Self.post)
    }

    /// Changes whenever a timeline could show something else (see migration 0004).
    func version() throws -> Int {
        try connection.queryFirst("SELECT version FROM model_versions WHERE name = 'posts'") { $0.int(0) } ?? 0
    }

    func count(by authorID: Int64) throws -> Int {
        try connection.queryFirst("SELECT count(*) FROM posts WHERE author_id = ?1", [.integer(authorID)]) { $0.int(0) } ?? 0
    }

    /// The first of `rows` that fit in a page (at least one), and the cursor after them when
    /// more rows follow than fit.
    private func page(_ rows: [PostView]) -> (posts: [PostView], nextCursor: Int?) {
        var posts: [PostView] = []
        var bytes = 0
        for post in rows.prefix(Self.pageSize) {
            bytes += JSONValue.escapedByteCount(of: post.text) + JSONValue.escapedByteCount(of: post.author.displayName)
            if !posts.isEmpty && bytes > Self.pageBytes { return (posts, posts.last?.id) }
            posts.append(post)
        }
        return (posts, rows.count > posts.count ? posts.last?.id : nil)
    }

    private static func post(_ row: Row) -> PostView {
        PostView(
            id: row.int(0), text: Rules.post.trimmed(row.string(1)), createdAt: instant(row.int64(2)),
            author: UserSummary(id: row.int(3), displayName: AccountRules.displayName.trimmed(row.string(4))))
    }

    /// The instant `seconds` after 1970, kept within the years 0000–9999 that RFC 3339 (the
    /// wire form of a `Date`) can write: a stored time outside them cannot break a screen.
    static func instant(_ seconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(min(max(seconds, -62_167_219_200), 253_402_300_799)))
    }
}
