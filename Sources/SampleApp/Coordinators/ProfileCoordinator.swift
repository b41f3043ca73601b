import Navigation
import SignInKit

/// The profile tab: the signed-in user, editing the display name, and the settings flow.
struct ProfileCoordinator: Coordinator {
    static let typeName = "Profile"

    /// The session's user is gone: signed out, or the account deleted.
    enum Output: Equatable {
        case signedOut, accountDeleted
    }
    var profile: ScreenID?

    enum Input: Equatable {
        case edit
        case openSettings
        case rename(String, screen: ScreenID)
    }

    static func input(for event: ScreenEvent) throws -> Input? {
        switch try event.output(ProfileScreen.self) {
        case .edit: return .edit
        case .openSettings: return .openSettings
        case nil: break
        }
        guard case .save(let field) = try event.output(EditProfileScreen.self) else { return nil }
        return .rename(field.displayName.trimmed, screen: event.screen.id)
    }

    mutating func start(_ context: inout Context) throws {
        profile = try context.push(ProfileScreen.self, try props(&context))
    }

    /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard let input = try Self.input(for: event) else { return .unhandled }
        try handle(input, &context)
        return .handled
    }

    mutating func handle(_ input: Input, _ context: inout Context) throws {
        switch input {
        case .edit:
            try context.push(EditProfileScreen.self, .init(displayName: context.user?.displayName ?? ""))
        case .openSettings:
            try context.startChild(.settings, AccountSettingsCoordinator(), placement: .modal)
        case .rename(let name, let screen):
            if let error = AccountRules.displayNameError(name) {
                let shown = context.localized(error)
                try context.update(screen, as: EditProfileScreen.self) { $0 = .init(displayName: name, error: shown) }
                return
            }
            guard var user = context.user else { return }
            try context.accounts.users.update(id: user.id, displayName: name)
            user.displayName = name
            context.updateUser(user)
            try context.pop()
        }
    }

    /// `/settings`: the settings flow over the profile screen (edit profile closed first).
    mutating func open(_ link: Link, _ context: inout Context) throws -> Handling {
        guard link.route(as: AppRoute.self) == .settings else { return .unhandled }
        if context.hasChild(.settings) { return try context.open(link, inChild: .settings) }
        try context.popToRoot()
        try refresh(&context)
        try context.startChild(.settings, AccountSettingsCoordinator(), placement: .modal)
        return .handled
    }

    mutating func screenAppeared(_ screen: Screen, _ context: inout Context) throws {
        if screen.id == profile { try refresh(&context) }
    }

    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        switch output.as(AccountSettingsCoordinator.self) {
        case .signedOut?: finish(.signedOut, &context)
        case .accountDeleted?: finish(.accountDeleted, &context)
        case .done?, nil: break  // the profile screen reappears and refreshes itself
        }
    }

    private func refresh(_ context: inout Context) throws {
        guard let profile else { return }
        let props = try props(&context)
        try context.update(profile, as: ProfileScreen.self) { $0 = props }
    }

    private func props(_ context: inout Context) throws -> ProfileScreen.Props {
        guard let user = context.user, let record = try context.accounts.users.find(id: user.id) else {
            return .init(user: nil, postCount: 0)
        }
        return .init(
            user: ProfileUser(id: Int(record.id), email: record.email, displayName: record.displayName),
            postCount: try context.models.posts.count(by: record.id))
    }
}
