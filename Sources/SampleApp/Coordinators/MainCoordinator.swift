import Navigation

/// The signed-in app: a tab layer with `home` and `profile`, each tab its own child flow.
/// Finishes with what the profile flow finished with (`signedOut`, `accountDeleted`).
struct MainCoordinator: Coordinator {
    static let typeName = "Main"
    typealias Output = ProfileCoordinator.Output

    mutating func start(_ context: inout Context) throws {
        // The tabs' titles in the language of the client that signed in.
        context.setRootTabs(
            [TabSpec(.home, title: context.localized("Home")), TabSpec(.profile, title: context.localized("Profile"))],
            selected: .home)
        try context.startChild(.home, HomeCoordinator(), placement: .tab(.home))
        try context.startChild(.profile, ProfileCoordinator(), placement: .tab(.profile))
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }

    /// Posts and users open on the home tab, settings over the profile tab: the tab selected and
    /// whatever is presented over the tabs closed, as the taps that reach them would.
    mutating func open(_ link: Link, _ context: inout Context) throws -> Handling {
        switch link.route(as: AppRoute.self) {
        case .post?, .user?:
            try context.dismissLayers()
            try context.selectTab(.home)
            return try context.open(link, inChild: .home)
        case .settings?:
            try context.dismissLayers(keeping: .profile)
            try context.selectTab(.profile)
            return try context.open(link, inChild: .profile)
        case .userSettings(let id)?:
            guard Int64(id) == context.user?.id else {
                throw LinkRejection.forbidden("Only your own settings can be opened.")
            }
            return try open(Link(AppRoute.settings), &context)
        case .signUp?, nil:
            return .unhandled
        }
    }

    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        if let ended = output.as(ProfileCoordinator.self) { finish(ended, &context) }
    }
}
