import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime
import OpenAPIURLSession
import SampleClient
import Testing

typealias Schemas = Components.Schemas

/// The README journey, walked with nothing but the types swift-openapi-generator made from the
/// sample app's served document: typed screens and props, typed event payloads, `user`, token
/// rotation, `If-Match` (which the runtime sends percent-encoded), a stale tap's `409` adopted from
/// its `state`, a `412` with its `ETag`, and an `Idempotency-Key` retry answered without applying twice.
@Suite struct JourneyTests {
    @Test func readmeJourneyWithTheGeneratedClient() async throws {
        let server = try Server()
        var walk = try await Walk(server.url)
        #expect(walk.state.user == nil)
        guard case .firstRun = walk.top else { Issue.record("first screen: \(walk.top)"); return }

        // Sign-up: three steps, typed payloads; the last signs in and rotates the token.
        try await walk.send { .signUp(.init(screen: $0, event: .signUp)) }
        // `next` takes the payload of the screen it is sent from: each screen's request is a type of its own.
        try await walk.send { .next(.SignUpEmailNextEvent(.init(screen: $0, event: .next, payload: .init(email: "ada@example.com")))) }
        try await walk.send {
            .next(.SignUpPasswordNextEvent(.init(screen: $0, event: .next, payload: .init(password: "correct horse battery staple"))))
        }
        let anonymous = walk.bearer.token.withLock { $0 }
        let signedUp = try await walk.send {
            .finish(.init(screen: $0, event: .finish, payload: .init(displayName: "Ada")))
        }
        #expect(signedUp.value2.token != nil && walk.bearer.token.withLock { $0 } != anonymous)
        #expect(walk.state.user?.displayName == "Ada")

        // Compose a post; the timeline's props are typed: posts with their author.
        try await walk.send { .compose(.init(screen: $0, event: .compose)) }
        try await walk.send { .submit(.ComposeSubmitEvent(.init(screen: $0, event: .submit, payload: .init(text: "Hello, coordinators!")))) }
        guard case .timeline(let timeline) = walk.top else { Issue.record("after posting: \(walk.top)"); return }
        // Any screen's id and name through the base its schema shares with every other screen.
        #expect(timeline.value1.id == walk.state.top && timeline.value1.name == "timeline")
        let post = try #require(timeline.value2.props.posts.first)
        #expect(post.text == "Hello, coordinators!" && post.author.displayName == "Ada")
        #expect(timeline.value2.props.nextCursor == nil)

        // If-Match with the current ETag applies (the runtime percent-encodes it: the server decodes it).
        try await walk.send(ifMatch: walk.etag) { .openPost(.init(screen: $0, event: .openPost, payload: .init(postId: post.id))) }
        #expect(walk.recorder.lastRequest.withLock { $0[.init("If-Match")!] }?.contains("%22") == true)
        guard case .post(let shown) = walk.top else { Issue.record("after openPost: \(walk.top)"); return }
        #expect(shown.value2.props.post.text == "Hello, coordinators!")

        // A stale tap: the post screen is gone once the author opens; its 409 carries the State, adopted.
        let postScreen = walk.state.top
        try await walk.send { .openUser(.init(screen: $0, event: .openUser, payload: .init(userId: post.author.id))) }
        let versionBefore = walk.state.version
        let stale = try await walk.client.postEvent(
            path: .init(id: walk.id), body: .json(.popToRoot(.init(screen: postScreen, event: .popToRoot))))
        guard case .conflict(let conflict) = stale else { Issue.record("stale tap: \(stale)"); return }
        #expect(conflict.headers.eTag == "\"\(versionBefore)\"")
        // The problem's kind is a typed enum (not an untyped container, as a `oneOf` of consts gave).
        #expect(try conflict.body.applicationProblemJson._type == .urn_colon_coordinatord_colon_problem_colon_staleScreen)
        let staleState = try #require(try conflict.body.applicationProblemJson.state)
        walk.adopt(staleState, etag: conflict.headers.eTag)
        guard case .user = walk.top else { Issue.record("adopted: \(walk.top)"); return }

        // A 412: If-Match names an old version; the answer carries the current one as ETag.
        let mismatch = try await walk.client.postEvent(
            path: .init(id: walk.id), headers: .init(ifMatch: "\"1\""),
            body: .json(.popToRoot(.init(screen: walk.state.top, event: .popToRoot))))
        guard case .preconditionFailed(let failed) = mismatch else { Issue.record("412: \(mismatch)"); return }
        #expect(try failed.body.applicationProblemJson._type == .urn_colon_coordinatord_colon_problem_colon_versionMismatch)
        #expect(failed.headers.eTag == walk.etag)
        #expect(try failed.body.applicationProblemJson.state?.version == walk.state.version)
        try await walk.send { .popToRoot(.init(screen: $0, event: .popToRoot)) }

        // An Idempotency-Key retry (an answer lost on the way) returns the first answer; nothing applies twice.
        let key = UUID().uuidString
        let top = walk.state.top
        let first = try await walk.send(key: key) { _ in .selectTab(.init(screen: top, event: .selectTab, payload: .init(tab: "profile"))) }
        let retried = try await walk.send(key: key) { _ in .selectTab(.init(screen: top, event: .selectTab, payload: .init(tab: "profile"))) }
        #expect(retried.value1.version == first.value1.version && retried.value1.top == first.value1.top)
        guard case .profile = walk.top else { Issue.record("profile tab: \(walk.top)"); return }

        // Sign out (the token rotates, `user` is null), log in again, change the password.
        try await walk.send { .openSettings(.init(screen: $0, event: .openSettings)) }
        #expect(try await walk.send { .signOut(.init(screen: $0, event: .signOut)) }.value2.token != nil)
        #expect(walk.state.user == nil)
        try await walk.send { .logIn(.init(screen: $0, event: .logIn)) }
        let credentials = Schemas.Credentials(email: "ada@example.com", password: "correct horse battery staple")
        #expect(try await walk.send { .submit(.LoginSubmitEvent(.init(screen: $0, event: .submit, payload: credentials))) }.value2.token != nil)
        #expect(walk.state.user?.displayName == "Ada")
        try await walk.send { .selectTab(.init(screen: $0, event: .selectTab, payload: .init(tab: "profile"))) }
        try await walk.send { .openSettings(.init(screen: $0, event: .openSettings)) }
        try await walk.send { .changePassword(.init(screen: $0, event: .changePassword)) }
        let change = Schemas.PasswordChange(currentPassword: "correct horse battery staple", newPassword: "a brand new passphrase 2026")
        #expect(try await walk.send { .save(.ChangePasswordSaveEvent(.init(screen: $0, event: .save, payload: change))) }.value2.token != nil)

        // Delete the account: the token rotates once more and the session starts over signed out.
        try await walk.send { .deleteAccount(.init(screen: $0, event: .deleteAccount)) }
        guard case .confirmDelete = walk.top else { Issue.record("confirm: \(walk.top)"); return }
        let deleted = try await walk.send {
            .confirm(.init(screen: $0, event: .confirm, payload: .init(password: "a brand new passphrase 2026")))
        }
        #expect(deleted.value2.token != nil && walk.state.user == nil)
        let final = try await walk.client.getSession(path: .init(id: walk.id))
        guard case .ok(let ok) = final, case .firstRun = Walk.top(of: try ok.body.json.stack) else {
            Issue.record("final state: \(final)")
            return
        }
    }
}

/// Links and every problem kind a walk can provoke, each read as the generated `Problem` with its
/// `type` the generated enum: a link opened (`link` in the answer's State), an unknown link (404),
/// an event the top screen does not take (422), a stale tap (409), a dead token (401), a session
/// of another token (404).
@Suite struct ProblemsAndLinksTests {
    typealias Kind = Schemas.Problem._TypePayload

    @Test func linksAndTypedProblemsWithTheGeneratedClient() async throws {
        let server = try Server()
        var walk = try await Walk(server.url)
        let firstRun = walk.state.top

        let opened = try await walk.send { .open(.init(screen: $0, event: .open, payload: .init(link: "/signup"))) }
        #expect(opened.value1.link == "/signup" && walk.state.top != firstRun)

        func problem(_ body: Components.Responses.NotFound.Body) throws -> Kind { try body.applicationProblemJson._type }
        let unknown = try await walk.client.postEvent(
            path: .init(id: walk.id), body: .json(.open(.init(screen: walk.state.top, event: .open, payload: .init(link: "/nowhere")))))
        #expect(try problem(unknown.notFound.body) == .urn_colon_coordinatord_colon_problem_colon_unknownLink)

        let undeclared = try await walk.client.postEvent(
            path: .init(id: walk.id), body: .json(.compose(.init(screen: walk.state.top, event: .compose))))
        #expect(try undeclared.unprocessableContent.body.applicationProblemJson._type == .urn_colon_coordinatord_colon_problem_colon_undeclaredEvent)

        let stale = try await walk.client.postEvent(
            path: .init(id: walk.id), body: .json(.logIn(.init(screen: firstRun, event: .logIn))))
        #expect(try stale.conflict.body.applicationProblemJson._type == .urn_colon_coordinatord_colon_problem_colon_staleScreen)

        let other = try await Walk(server.url)
        let foreign = try await walk.client.getSession(path: .init(id: other.id))
        #expect(try problem(foreign.notFound.body) == .urn_colon_coordinatord_colon_problem_colon_sessionNotFound)

        walk.bearer.token.withLock { $0 = "not-a-token" }
        let dead = try await walk.client.getSession(path: .init(id: walk.id))
        #expect(try dead.unauthorized.body.applicationProblemJson._type == .urn_colon_coordinatord_colon_problem_colon_unauthorized)
    }
}

/// The client side of the journey: the generated `Client`, the session's token and its State.
struct Walk {
    let client: Client
    let bearer = BearerToken()
    let recorder = Recorder()
    let id: String
    var state: Schemas.State
    var etag: String?

    init(_ url: URL) async throws {
        client = Client(serverURL: url, transport: URLSessionTransport(), middlewares: [bearer, recorder])
        let created = try await client.createSession(body: .json(.init(platform: .web))).created
        let body = try created.body.json
        bearer.token.withLock { $0 = body.token }
        (id, state, etag) = (body.session.id, body.session, created.headers.eTag)
    }

    /// The screen that accepts events now: the last of the top layer's (selected tab's) stack.
    var top: Schemas.Screen? { Self.top(of: state.stack) }

    static func top(of stack: [Schemas.Layer]) -> Schemas.Screen? {
        switch stack.last {
        case .StackLayer(let layer): layer.screens.last
        case .TabsLayer(let layer): layer.tabs.first { $0.name == layer.selectedTab }?.screens.last
        case nil: nil
        }
    }

    /// Posts the event `make` builds for the top screen's id; adopts the answer and a rotated token.
    @discardableResult
    mutating func send(
        ifMatch: String? = nil, key: String? = nil, _ make: (String) -> Schemas.Event
    ) async throws -> Schemas.EventAnswer {
        let output = try await client.postEvent(
            path: .init(id: id), headers: .init(ifMatch: ifMatch, idempotencyKey: key), body: .json(make(state.top)))
        let ok = try output.ok
        let answer = try ok.body.json
        if let token = answer.value2.token { bearer.token.withLock { $0 = token } }
        // The answer is a State and its extras: adopted as any State is, no member copied by hand.
        adopt(answer.value1, etag: ok.headers.eTag)
        return answer
    }

    mutating func adopt(_ state: Schemas.State, etag: String?) {
        self.state = state
        self.etag = etag
    }
}

/// The live stream with the generated types: the generated `streamSession`'s body, read with the
/// runtime's Server-Sent Events decoder, each frame's `data` the generated `State`, the last one
/// `event: ended` with the generated `StreamEnded`.
@Suite struct StreamTests {
    @Test func theLiveStreamDecodesIntoTheGeneratedTypes() async throws {
        let server = try Server()
        let walk = try await Walk(server.url)
        let (client, id, version) = (walk.client, walk.id, walk.state.version)
        // Linux's URLSession hands a body over only once it closed: the session's deletion closes
        // the stream (its last frame says why), and the whole of it is decoded then.
        let streamed = Task { () -> [ServerSentEvent] in
            let body = try await client.streamSession(path: .init(id: id)).ok.body.textEventStream
            var events: [ServerSentEvent] = []
            for try await event in body.asDecodedServerSentEvents() { events.append(event) }
            return events
        }
        let deadline = Date().addingTimeInterval(60)
        while try await Self.openStreams(server.url) < 1 {
            guard Date() < deadline else { throw ServerError("the stream never opened") }
            try await Task.sleep(for: .milliseconds(10))
        }
        _ = try await client.deleteSession(path: .init(id: id)).noContent
        let events = try await streamed.value
        let first = try #require(events.first)
        #expect(first.event == nil && first.id == "\(version)")
        let state = try JSONDecoder().decode(Schemas.State.self, from: Data((first.data ?? "").utf8))
        #expect(state.id == id && state.version == version)
        let last = try #require(events.last)
        #expect(last.event == "ended")
        let ended = try JSONDecoder().decode(Schemas.StreamEnded.self, from: Data((last.data ?? "").utf8))
        #expect(ended.reason == .sessionEnded)
    }

    /// `coordinatord_streams_open` in `/metrics`.
    static func openStreams(_ url: URL) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: url.appendingPathComponent("metrics"))
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("coordinatord_streams_open ") }
        return line.flatMap { Int(Double($0.split(separator: " ").last ?? "") ?? 0) } ?? 0
    }
}
