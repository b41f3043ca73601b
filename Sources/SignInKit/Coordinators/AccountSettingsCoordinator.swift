import AccountProtection
import Navigation

/// twocentstudios' settings coordinator: the account's settings (password change, sign-out,
/// account deletion), a flow the app presents (modally, say) that finishes with `done`,
/// `signedOut` or `accountDeleted`.
public struct AccountSettingsCoordinator: Coordinator {
    // The sample app stored sessions under this name before the kit existed.
    public static let typeName = "Settings"
    public static let screens: [any ScreenType.Type] = [SettingsScreen.self, ChangePasswordScreen.self, ConfirmDeleteScreen.self]

    public init() {}

    public enum Output: Equatable, Sendable {
        case done, signedOut, accountDeleted
    }

    public enum Input: Equatable, Sendable {
        case showChangePassword, signOut, askToDelete, done, cancelDelete
        case changePassword(current: String, new: String, screen: ScreenID)
        case deleteAccount(password: String, screen: ScreenID)
    }

    public static func input(for event: ScreenEvent) throws -> Input? {
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

    public mutating func start(_ context: inout Context) throws {
        try context.push(SettingsScreen.self)
    }

    /// The settings link (`SignInRoute.opensAccountSettings`) while open: back to the settings
    /// screen (the delete alert and change password closed).
    public mutating func open(_ link: Link, _ context: inout Context) throws -> Handling {
        guard link.opensAccountSettings else { return .unhandled }
        if context.ownScreens.contains(where: { $0.name == ConfirmDeleteScreen.name }) { try context.dismiss() }
        try context.popToRoot()
        return .handled
    }

    /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
    public mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard let input = try Self.input(for: event) else { return .unhandled }
        try handle(input, &context)
        return .handled
    }

    public mutating func handle(_ input: Input, _ context: inout Context) throws {
        switch input {
        case .showChangePassword:
            try context.push(ChangePasswordScreen.self, .init())
        case .signOut:
            context.signOut()
            finish(.signedOut, &context)
        case .askToDelete:
            let warning = context.localized(try context.accounts.options.deletionWarning)
            try context.present(ConfirmDeleteScreen.self, .init(message: warning), as: .alert)
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
        let models = try context.accounts
        guard let user = context.user, let record = try models.users.find(id: user.id) else { return }
        let error = try recheck(current, of: record, models) ? AccountRules.passwordError(new) : AccountRules.wrongPassword
        if let error {
            let shown = context.localized(error)
            try context.update(screen, as: ChangePasswordScreen.self) { $0.error = shown }
            return
        }
        try models.users.update(id: user.id, passwordHash: models.passwords.hash(new))
        // Devices that proved the old password prove nothing now; this one keeps its credential.
        let device = try models.guards.devices.credential(models.deviceToken, ofUser: user.id, now: models.now, on: models.connection)
        try models.guards.devices.revoke(ofUser: user.id, keeping: device, on: models.connection)
        context.rotateCredentials()
        context.endOtherSessions(ofUser: user.id)
        try context.pop()
    }

    /// Deleting the account ends every session of the user, this one included (it signs out),
    /// and erases the journal of every session the user was signed in to.
    private func deleteAccount(password: String, screen: ScreenID, _ context: inout Context) throws {
        let models = try context.accounts
        guard let user = context.user, let record = try models.users.find(id: user.id) else { return }
        guard try recheck(password, of: record, models) else {
            let shown = context.localized(AccountRules.wrongPassword)
            try context.update(screen, as: ConfirmDeleteScreen.self) { $0.error = shown }
            return
        }
        // What other sessions were shown of her (her name, what the app says) leaves their journals too.
        let shown = [record.displayName, record.email] + (try models.options.shownOfUser(user.id, models.connection))
        try models.users.delete(id: user.id)
        context.endOtherSessions(ofUser: user.id)
        context.forgetUser(user.id)
        context.eraseMentions(shown)
        context.signOut()
        finish(.accountDeleted, &context)
    }

    /// Checks the signed-in user's password again, throttled like sign-ins: a stolen session
    /// must not be a way to guess the password quickly. A failure counts even when the event is
    /// refused afterwards (its answer would grow the session past its limit, say).
    private func recheck(_ password: String, of record: AccountRecord, _ models: AccountModels) throws -> Bool {
        let throttle = models.guards.passwordChecks
        let attempt = try throttle.check(
            account: "user:\(record.id)", client: models.clientAddress, now: models.now, on: models.connection)
        guard try models.passwords.verify(password, against: record.passwordHash) else {
            try throttle.recordFailure(attempt, now: models.now, lasting: models.lasting)
            return false
        }
        try throttle.recordSuccess(attempt, on: models.connection)
        return true
    }
}
