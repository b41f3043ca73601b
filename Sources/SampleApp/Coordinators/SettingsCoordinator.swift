import Navigation

/// twocentstudios' settings coordinator: a flow presented modally that finishes with
/// `done`, `signedOut` or `accountDeleted`.
struct SettingsCoordinator: InputMapping {
    static let typeName = "Settings"

    enum Output: Equatable {
        case done, signedOut, accountDeleted
    }

    enum Input: Equatable {
        case showChangePassword, signOut, askToDelete, done, cancelDelete
        case changePassword(current: String, new: String, screen: ScreenID)
        case deleteAccount(password: String, screen: ScreenID)
    }

    static func mapIO(_ event: ScreenEvent) throws -> Input? {
        switch try event.output(SettingsScreen.self) {
        case .changePassword: return .showChangePassword
        case .signOut: return .signOut
        case .deleteAccount: return .askToDelete
        case .done: return .done
        case nil: break
        }
        if case .save(let change) = try event.output(ChangePasswordScreen.self) {
            return .changePassword(current: change.currentPassword, new: change.newPassword, screen: event.screen.id)
        }
        switch try event.output(ConfirmDeleteScreen.self) {
        case .confirm(let field): return .deleteAccount(password: field.password, screen: event.screen.id)
        case .cancel: return .cancelDelete
        case nil: return nil
        }
    }

    mutating func start(_ context: inout Context) throws {
        try context.push(SettingsScreen.self)
    }

    mutating func handle(_ input: Input, _ context: inout Context) throws {
        switch input {
        case .showChangePassword:
            try context.push(ChangePasswordScreen.self, .init())
        case .signOut:
            context.signOut()
            finish(.signedOut, &context)
        case .askToDelete:
            try context.present(
                ConfirmDeleteScreen.self,
                .init(message: "Delete your account and all your posts? Enter your password to confirm."), as: .alert)
        case .done:
            finish(.done, &context)
        case .cancelDelete:
            try context.dismiss()
        case .changePassword(let current, let new, let screen):
            try changePassword(current: current, new: new, screen: screen, &context)
        case .deleteAccount(let password, let screen):
            try deleteAccount(password: password, screen: screen, &context)
        }
    }

    /// A new password ends the user's other sessions (OWASP: invalidate sessions on a credential
    /// change); this one stays signed in with a new token.
    private func changePassword(current: String, new: String, screen: ScreenID, _ context: inout Context) throws {
        let models = try context.models
        guard let user = context.user, let record = try models.users.find(id: user.id) else { return }
        let error = try recheck(current, of: record, models) ? Rules.passwordError(new) : Rules.wrongPassword
        if let error {
            try context.update(screen, as: ChangePasswordScreen.self) { $0.error = error }
            return
        }
        try models.users.update(id: user.id, passwordHash: models.passwords.hash(new))
        context.rotateCredentials()
        context.endOtherSessions(ofUser: user.id)
        try context.pop()
    }

    /// Deleting the account ends every session of the user, this one included (it signs out).
    private func deleteAccount(password: String, screen: ScreenID, _ context: inout Context) throws {
        let models = try context.models
        guard let user = context.user, let record = try models.users.find(id: user.id) else { return }
        guard try recheck(password, of: record, models) else {
            try context.update(screen, as: ConfirmDeleteScreen.self) { $0.error = Rules.wrongPassword }
            return
        }
        try models.users.delete(id: user.id)
        context.endOtherSessions(ofUser: user.id)
        context.signOut()
        finish(.accountDeleted, &context)
    }

    /// Checks the signed-in user's password again, throttled like sign-ins: a stolen session
    /// must not be a way to guess the password quickly.
    private func recheck(_ password: String, of record: UserRecord, _ models: AppModels) throws -> Bool {
        let account = "user:\(record.id)"
        try models.guards.passwordChecks.check(
            account: account, client: models.clientAddress, now: models.now, on: models.connection)
        guard try models.passwords.verify(password, against: record.passwordHash) else {
            try models.guards.passwordChecks.recordFailure(
                account: account, client: models.clientAddress, now: models.now, on: models.connection)
            return false
        }
        try models.guards.passwordChecks.recordSuccess(
            account: account, client: models.clientAddress, on: models.connection)
        return true
    }
}
