import Foundation
import CoordinatorTesting
import Navigation
@testable import SampleApp
import Testing

/// Issue 19, item 1: no user's text can fill another user's session. Text is limited by bytes
/// and marks as well as characters, and what a screen shows of shared posts is bounded.
@Suite struct SharedContentTests {
    /// The state limit sessions have by default (`--max-snapshot-bytes`).
    static let stateLimit = 128 * 1024
    static let zalgo = "Z" + String(repeating: "\u{301}", count: 32_000)

    static func snapshotBytes(_ app: AppTester) throws -> Int { try SampleApp.navigation.snapshot(app.tree).count }

    @Test func oneCharacterOfSixtyFourKilobytesIsNotAPostNorAName() async throws {
        var app = try await AppTester.sample()
        try await app.register()
        try await app.send(TimelineScreen.self, .compose)
        try await app.send(ComposeScreen.self, .submit(PostText(text: Self.zalgo)))
        #expect(app.top.props["error"] == "A post has 1 to 500 characters.")
        try await app.send(ComposeScreen.self, .submit(PostText(text: "Z\u{301}\u{301}\u{301}\u{301}\u{301} five accents")))
        #expect(app.top.props["error"] == "Use at most 4 accents on one letter.")
        try await app.send(ComposeScreen.self, .submit(PostText(text: String(repeating: "😀", count: 501))))
        #expect(app.top.props["error"] == "A post has 1 to 500 characters.")
        try await app.send(ComposeScreen.self, .submit(PostText(text: String(repeating: "😀", count: 500))))
        #expect(app.top.name == "timeline")
        #expect(try app.count("posts") == 1)

        try await app.send("selectTab", ["tab": "profile"])
        try await app.send(ProfileScreen.self, .edit)
        try await app.send(EditProfileScreen.self, .save(DisplayNameField(displayName: "Z" + String(repeating: "\u{301}", count: 8_000))))
        #expect(app.top.props["error"] == "Use a display name of 1 to 50 characters.")

        var newcomer = try await app.newSession()
        try await newcomer.send(FirstRunScreen.self, .signUp)
        try await newcomer.send(SignUpEmailScreen.self, .next(EmailField(email: "eve@example.com")))
        try await newcomer.send(SignUpPasswordScreen.self, .next(PasswordField(password: AppTester.password)))
        try await newcomer.send(SignUpProfileScreen.self, .finish(DisplayNameField(displayName: Self.zalgo)))
        #expect(newcomer.top.props["error"] == "Use a display name of 1 to 50 characters.")
        #expect(try app.count("users") == 1)
    }

    /// Posts and a name stored before the limits (or behind the app's back): a newcomer's
    /// timeline, another author's page and a post stay small; every post is reached by paging.
    @Test func storedHugeTextNeverFillsAnotherSession() async throws {
        var author = try await AppTester.sample()
        try await author.register(email: "zalgo@example.com", name: "Zalgo")
        try author.database.run("UPDATE users SET display_name = ?1", [.text(Self.zalgo)])
        let long = String(repeating: "w", count: 64_000)
        for index in 1...30 {
            try author.database.run(
                "INSERT INTO posts (author_id, text, created_at) VALUES (1, ?1, ?2)",
                [.text(index.isMultiple(of: 2) ? long : "\(index) " + Self.zalgo), .int(index)])
        }
        var reader = try await author.newSession()
        try await reader.register(email: "reader@example.com", name: "Reader")
        #expect(reader.top.name == "timeline")
        #expect(try Self.snapshotBytes(reader) < Self.stateLimit / 4)
        var seen: [Int] = []
        while true {
            let posts = MainFlowTests.posts(reader)
            for post in posts.dropFirst(seen.count) {
                let text = post["text"]?.stringValue ?? ""
                #expect(text.count <= 500 && text.utf8.count <= 2_000)
                #expect(text.hasSuffix("…") == (post["id"]?.intValue ?? 0).isMultiple(of: 2))
                #expect((post["author"]?["displayName"]?.stringValue ?? "").utf8.count <= 200)
                seen.append(post["id"]?.intValue ?? 0)
            }
            guard reader.top.props["nextCursor"] != .null else { break }
            try await reader.send(TimelineScreen.self, .loadMore)
        }
        #expect(seen == Array((1...30).reversed()))

        try await reader.send(TimelineScreen.self, .refresh)
        try await reader.send(TimelineScreen.self, .openUser(UserReference(userId: 1)))
        #expect(reader.top.name == "user")
        try await reader.send(UserScreen.self, .openPost(PostReference(postId: 30)))
        #expect(reader.top.name == "post")
        #expect(try Self.snapshotBytes(reader) < Self.stateLimit / 2)
    }

    /// A page holds at most 20 posts and `PostStore.pageBytes` of text; the cursor goes on
    /// where the page stopped, so nothing is skipped.
    @Test func aPageIsBoundedInBytesAndSkipsNothing() async throws {
        var app = try await AppTester.sample()
        try await app.register()
        for index in 1...20 {
            let text = String(format: "%02d", index) + String(repeating: "€", count: 300) + String(repeating: "\"", count: 198)
            try app.database.run(
                "INSERT INTO posts (author_id, text, created_at) VALUES (1, ?1, ?2)", [.text(text), .int(index)])
        }
        try await app.send(TimelineScreen.self, .refresh)
        // Each text has 500 characters and 1,100 bytes, 1,298 as JSON (its quotes escaped); its author 3.
        let perPage = PostStore.pageBytes / 1_301
        #expect(perPage == 12)
        #expect(MainFlowTests.posts(app).count == perPage)
        #expect(app.top.props["nextCursor"] == .int(21 - perPage))
        try await app.send(TimelineScreen.self, .loadMore)
        #expect(MainFlowTests.posts(app).map { $0["id"]?.intValue ?? 0 } == Array((1...20).reversed()))
        #expect(app.top.props["nextCursor"] == .null)
    }
}
