import Navigation

/// The home tab: the timeline, posts and users pushed without end (twocentstudios' timeline),
/// and the compose sheet presented modally.
struct HomeCoordinator: Coordinator {
    static let typeName = "Home"
    var timeline: ScreenID?
    /// The posts' model version the timeline shows; it reloads only when that moved on.
    var shownVersion: Int?

    mutating func start(_ context: inout Context) throws {
        shownVersion = try context.models.posts.version()
        let page = try context.models.posts.timeline(before: nil)
        timeline = try context.push(Screens.timeline, ["posts": .array(page.posts), "nextCursor": page.nextCursor])
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        let models = try context.models
        switch (event.screen.name, event.name) {
        case (_, "openPost"):
            if let post = try models.posts.post(id: event.payload.int("postId")) {
                try context.push(Screens.post, ["post": post])
            }
        case (_, "openUser"):
            if let user = try models.users.find(id: Int64(event.payload.int("userId"))) {
                try context.push(
                    Screens.user,
                    [
                        "user": ["id": .int(Int(user.id)), "displayName": .string(user.displayName)],
                        "posts": .array(models.posts.posts(by: user.id)),
                    ])
            }
        case (_, "popToRoot"):
            try context.popToRoot()
        case ("timeline", "refresh"):
            try refresh(&context, force: true)
        case ("timeline", "loadMore"):
            guard let cursor = event.screen.props["nextCursor"]?.intValue else { return .handled }
            let page = try models.posts.timeline(before: cursor)
            try context.updateProps(event.screen.id) {
                $0["posts"] = .array(($0["posts"]?.arrayValue ?? []) + page.posts)
                $0["nextCursor"] = page.nextCursor
            }
        case ("timeline", "compose"):
            context.present(Screens.compose, ["text": "", "error": nil])
        case ("compose", "submit"):
            let text = event.payload.string("text")
            if let error = Rules.postError(text.trimmed.isEmpty ? "" : text) {
                try context.updateProps(event.screen.id) { $0 = ["text": .string(text), "error": .string(error)] }
                return .handled
            }
            guard let user = context.user else { return .unhandled }
            _ = try models.posts.create(authorID: user.id, text: text, now: models.now)
            try context.dismiss()
        case ("compose", "cancel"):
            try context.dismiss()
        default:
            return .unhandled
        }
        return .handled
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
        try context.updateProps(timeline) {
            $0 = ["posts": .array(page.posts), "nextCursor": page.nextCursor]
        }
    }
}
