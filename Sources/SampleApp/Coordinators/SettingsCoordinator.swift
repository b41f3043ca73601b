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

    /// A new password ends the user's other sessions (OWASP: invalidate sessions on a credential
    /// change); this one stays signed in with a new token.
    private func changePassword(_ event: ScreenEvent, _ context: inout Context) throws {
        let models = try context.models
        guard let user = context.user, let record = try models.users.find(id: user.id) else { return }
        let newPassword = event.payload.string("newPassword")
        let error =
            try recheck(event.payload.string("currentPassword"), of: record, models)
            ? Rules.passwordError(newPassword) : Rules.wrongPassword
        if let error {
            try context.updateProps(event.screen.id) { $0["error"] = .string(error) }
            return
        }
        try models.users.update(id: user.id, passwordHash: models.passwords.hash(newPassword))
        context.rotateCredentials()
        context.endOtherSessions(ofUser: user.id)
        try context.pop()
    }

    /// Deleting the account ends every session of the user, this one included (it signs out).
    private func deleteAccount(_ event: ScreenEvent, _ context: inout Context) throws {
        let models = try context.models
        guard let user = context.user, let record = try models.users.find(id: user.id) else { return }
        guard try recheck(event.payload.string("password"), of: record, models) else {
            try context.updateProps(event.screen.id) { $0["error"] = .string(Rules.wrongPassword) }
            return
        }
        try models.users.delete(id: user.id)
        context.endOtherSessions(ofUser: user.id)
        context.signOut()
        context.finish(CoordinatorOutput("accountDeleted"))
    }

    /// Checks the signed-in user's password again, throttled like sign-ins: a stolen session
    /// must not be a way to guess the password quickly.
    private func recheck(_ password: String, of record: UserRecord, _ models: AppModels) throws -> Bool {
        let account = "user:\(record.id)"
        try models.guards.passwordChecks.check(account: account, client: models.clientAddress, now: models.now)
        guard try models.passwords.verify(password, against: record.passwordHash) else {
            models.guards.passwordChecks.recordFailure(account: account, client: models.clientAddress, now: models.now)
            return false
        }
        models.guards.passwordChecks.recordSuccess(account: account, client: models.clientAddress)
        return true
    }
}
