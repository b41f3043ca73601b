import Navigation

/// The profile tab: the signed-in user, editing the display name, and the settings flow.
struct ProfileCoordinator: Coordinator {
    static let typeName = "Profile"
    var profile: ScreenID?

    mutating func start(_ context: inout Context) throws {
        profile = try context.push(Screens.profile, try props(&context))
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        switch (event.screen.name, event.name) {
        case ("profile", "edit"):
            try context.push(Screens.editProfile, ["displayName": .string(context.user?.displayName ?? ""), "error": nil])
        case ("profile", "openSettings"):
            try context.startChild("settings", SettingsCoordinator(), placement: .modal)
        case ("editProfile", "save"):
            let name = event.payload.string("displayName").trimmed
            if let error = Rules.displayNameError(name) {
                try context.updateProps(event.screen.id) { $0 = ["displayName": .string(name), "error": .string(error)] }
                return .handled
            }
            guard var user = context.user else { return .unhandled }
            try context.models.users.update(id: user.id, displayName: name)
            user.displayName = name
            context.updateUser(user)
            try context.pop()
        default:
            return .unhandled
        }
        return .handled
    }

    mutating func screenAppeared(_ screen: Screen, _ context: inout Context) throws {
        if screen.id == profile { try refresh(&context) }
    }

    mutating func childFinished(_ key: String, output: CoordinatorOutput, _ context: inout Context) throws {
        switch output.name {
        case "signedOut", "accountDeleted": context.finish(output)
        default: break  // the profile screen reappears and refreshes itself
        }
    }

    private func refresh(_ context: inout Context) throws {
        guard let profile else { return }
        let props = try props(&context)
        try context.updateProps(profile) { $0 = props }
    }

    private func props(_ context: inout Context) throws -> [String: JSONValue] {
        guard let user = context.user, let record = try context.models.users.find(id: user.id) else {
            return ["user": nil, "postCount": 0]
        }
        return [
            "user": ["id": .int(Int(record.id)), "email": .string(record.email), "displayName": .string(record.displayName)],
            "postCount": .int(try context.models.posts.count(by: record.id)),
        ]
    }
}
