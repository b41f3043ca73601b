import Navigation

/// twocentstudios' settings coordinator: a flow presented modally that finishes with
/// `done`, `signedOut` or `accountDeleted`.
struct SettingsCoordinator: Coordinator {
    static let typeName = "Settings"

    mutating func start(_ context: inout Context) throws {
        try context.push(Screens.settings)
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        switch (event.screen.name, event.name) {
        case ("settings", "changePassword"):
            try context.push(Screens.changePassword, ["error": nil])
        case ("settings", "signOut"):
            context.signOut()
            context.finish(CoordinatorOutput("signedOut"))
        case ("settings", "deleteAccount"):
            context.present(
                Screens.confirmDelete,
                ["message": "Delete your account and all your posts? Enter your password to confirm.", "error": nil],
                as: .alert)
        case ("settings", "done"):
            context.finish(CoordinatorOutput("done"))
        case ("changePassword", "save"):
            try changePassword(event, &context)
        case ("confirmDelete", "confirm"):
            try deleteAccount(event, &context)
        case ("confirmDelete", "cancel"):
            try context.dismiss()
        default:
            return .unhandled
        }
        return .handled
    }

    private func changePassword(_ event: ScreenEvent, _ context: inout Context) throws {
        let models = try context.models
        guard let user = context.user, let record = try models.users.find(id: user.id) else { return }
        let newPassword = event.payload.string("newPassword")
        let error =
            try models.passwords.verify(event.payload.string("currentPassword"), against: record.passwordHash)
            ? Rules.passwordError(newPassword) : Rules.wrongPassword
        if let error {
            try context.updateProps(event.screen.id) { $0["error"] = .string(error) }
            return
        }
        try models.users.update(id: user.id, passwordHash: models.passwords.hash(newPassword))
        context.rotateCredentials()
        try context.pop()
    }

    private func deleteAccount(_ event: ScreenEvent, _ context: inout Context) throws {
        let models = try context.models
        guard let user = context.user, let record = try models.users.find(id: user.id) else { return }
        guard try models.passwords.verify(event.payload.string("password"), against: record.passwordHash) else {
            try context.updateProps(event.screen.id) { $0["error"] = .string(Rules.wrongPassword) }
            return
        }
        try models.users.delete(id: user.id)
        context.signOut()
        context.finish(CoordinatorOutput("accountDeleted"))
    }
}
