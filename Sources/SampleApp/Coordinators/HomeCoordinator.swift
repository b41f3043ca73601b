import Navigation
import SignInKit

/// The home tab: the timeline, posts and users pushed without end (twocentstudios' timeline),
/// and the compose sheet presented modally.
struct HomeCoordinator: Coordinator {
    static let typeName = "Home"
    var timeline: ScreenID?
    /// The posts' model version the timeline shows; it reloads only when that moved on.
    var shownVersion: Int?

    enum Input: Equatable {
        case openPost(Int)
        case openUser(Int)
        case popToRoot
        case refresh
        case loadMore(screen: ScreenID)
        case compose
        case post(String, screen: ScreenID)
        case cancelCompose
    }

    static func input(for event: ScreenEvent) throws -> Input? {
        switch try event.output(TimelineScreen.self) {
        case .openPost(let post): return .openPost(post.postId)
        case .openUser(let user): return .openUser(user.userId)
        case .compose: return .compose
        case .loadMore: return .loadMore(screen: event.screen.id)
        case .refresh: return .refresh
        case nil: break
        }
        switch try event.output(PostScreen.self) {
        case .openUser(let user): return .openUser(user.userId)
        case .popToRoot: return .popToRoot
        case nil: break
        }
        switch try event.output(UserScreen.self) {
        case .openPost(let post): return .openPost(post.postId)
        case .popToRoot: return .popToRoot
        case nil: break
        }
        switch try event.output(ComposeScreen.self) {
        case .submit(let post): return .post(post.text, screen: event.screen.id)
        case .cancel: return .cancelCompose
        case nil: return nil
        }
    }

    mutating func start(_ context: inout Context) throws {
        shownVersion = try context.models.posts.version()
        let page = try context.models.posts.timeline(before: nil)
        timeline = try context.push(TimelineScreen.self, .init(posts: page.posts, nextCursor: page.nextCursor))
    }

    /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard let input = try Self.input(for: event) else { return .unhandled }
        try handle(input, &context)
        return .handled
    }

    mutating func handle(_ input: Input, _ context: inout Context) throws {
        let models = try context.models
        switch input {
        case .openPost(let id):
            if let post = try models.posts.post(id: id) { try context.push(PostScreen.self, .init(post: post)) }
        case .openUser(let id):
            if let user = try context.accounts.users.find(id: Int64(id)) { try pushUser(user, models, &context) }
        case .popToRoot:
            try context.popToRoot()
        case .refresh:
            try refresh(&context, force: true)
        case .loadMore(let screen):
            guard let cursor = context.props(of: screen, as: TimelineScreen.self)?.nextCursor else { return }
            let page = try models.posts.timeline(before: cursor)
            try context.update(screen, as: TimelineScreen.self) {
                $0.posts += page.posts
                $0.nextCursor = page.nextCursor
            }
        case .compose:
            try context.present(ComposeScreen.self, .init(text: ""))
        case .post(let text, let screen):
            if let error = Rules.postError(text.trimmed.isEmpty ? "" : text) {
                let shown = context.localized(error)
                try context.update(screen, as: ComposeScreen.self) { $0 = .init(text: text, error: shown) }
                return
            }
            guard let user = context.user else { return }
            _ = try models.posts.create(authorID: user.id, text: text, now: models.now)
            try context.dismiss()
        case .cancelCompose:
            try context.dismiss()
        }
    }

    /// `/posts/{id}` and `/users/{id}`: that screen over the timeline, as tapping it there would
    /// show it; nothing changes when it is already so.
    mutating func open(_ link: Link, _ context: inout Context) throws -> Handling {
        let models = try context.models
        let shown = context.ownScreens
        switch link.route(as: AppRoute.self) {
        case .post(let id)?:
            guard let post = try models.posts.post(id: id) else { throw LinkRejection.notFound("No post \(id).") }
            if shown.count == 2, context.props(of: shown[1].id, as: PostScreen.self)?.post.id == id { return .handled }
            try showTimeline(&context)
            try context.push(PostScreen.self, .init(post: post))
        case .user(let id)?:
            guard let user = try context.accounts.users.find(id: Int64(id)) else { throw LinkRejection.notFound("No user \(id).") }
            if shown.count == 2, context.props(of: shown[1].id, as: UserScreen.self)?.user.id == id { return .handled }
            try showTimeline(&context)
            try pushUser(user, models, &context)
        default:
            return .unhandled
        }
        return .handled
    }

    /// The timeline alone on the tab, brought up to date as it is when it appears again.
    private mutating func showTimeline(_ context: inout Context) throws {
        try context.popToRoot()
        try refresh(&context, force: false)
    }

    private func pushUser(_ user: AccountRecord, _ models: AppModels, _ context: inout Context) throws {
        try context.push(
            UserScreen.self,
            .init(user: UserSummary(id: Int(user.id), displayName: user.displayName), posts: models.posts.posts(by: user.id)))
    }

    /// The timeline on top again (pop, dismiss, tab switch): show what was posted meanwhile.
    mutating func screenAppeared(_ screen: Screen, _ context: inout Context) throws {
        if screen.id == timeline { try refresh(&context, force: false) }
    }

    /// Reloads the first page of the timeline: when asked to, or when the posts changed.
    private mutating func refresh(_ context: inout Context, force: Bool) throws {
        guard let timeline else { return }
        let version = try context.models.posts.version()
        guard force || version != shownVersion else { return }
        shownVersion = version
        let page = try context.models.posts.timeline(before: nil)
        try context.update(timeline, as: TimelineScreen.self) { $0 = .init(posts: page.posts, nextCursor: page.nextCursor) }
    }
}
