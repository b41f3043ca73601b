import AccountProtection
import Navigation

// What the kit's flows declare before they run (`Coordinator.prepare(for:_:)`): the password
// work each event will ask for, asked here first with the same calls and the same guards before
// it (a throttled account or client is refused before any hash), so that the flow runs once,
// on the writer, and finds its work done.

extension SignInCoordinator {
    public func prepare(for event: ScreenEvent, _ context: Context) throws -> EventAccess? {
        switch try Self.input(for: event) {
        case .showLogin?: return .navigates
        case .signIn(let email, let password, _)?:
            let models = try context.accounts
            let account = EmailAddress.key(email)
            // Read-only: keys a past build stored wait for the flow's look-up (a miss only costs a run).
            let user = account.utf8.count <= EmailBounds.maxKeyBytes ? try models.users.lookUp(email: email) : nil
            let device = try user.flatMap {
                try models.guards.devices.credential(models.deviceToken, ofUser: $0.id, now: models.now, on: models.connection)
            }
            _ = try models.guards.signIns.check(
                account: account, client: models.clientAddress, device: device?.id, now: models.now, on: models.connection)
            let hash = user?.passwordHash ?? models.dummyHash
            if try models.passwords.verify(password, against: hash), user != nil, models.passwords.needsRehash(hash) {
                _ = try models.passwords.hash(password)
            }
            return .writes
        case .register?, nil: return nil
        }
    }
}

extension RegistrationCoordinator {
    public func prepare(for event: ScreenEvent, _ context: Context) throws -> EventAccess? {
        switch try Self.input(for: event) {
        case .password(let password, _)?:
            guard AccountRules.passwordError(password) == nil else { return .navigates }
            let models = try context.accounts
            try models.guards.registrations.check(models.clientAddress, now: models.now, on: models.connection)
            _ = try models.passwords.hash(password)
            return .writes
        case .email?, .displayName?: return .writes
        case nil: return nil
        }
    }
}

extension FormRegistrationCoordinator {
    public func prepare(for event: ScreenEvent, _ context: Context) throws -> EventAccess? {
        guard case .submit(let email, let password, let displayName, _)? = try Self.input(for: event) else { return nil }
        let invalid = AccountRules.emailError(email) ?? AccountRules.passwordError(password) ?? AccountRules.displayNameError(displayName)
        guard invalid == nil else { return .navigates }
        let models = try context.accounts
        try models.guards.registrations.check(models.clientAddress, now: models.now, on: models.connection)
        _ = try models.passwords.hash(password)
        return .writes
    }
}

extension AccountSettingsCoordinator {
    public func prepare(for event: ScreenEvent, _ context: Context) throws -> EventAccess? {
        let password: String
        var new: String?
        switch try Self.input(for: event) {
        case .changePassword(let current, let newPassword, _)?: (password, new) = (current, newPassword)
        case .deleteAccount(let given, _)?: password = given
        case .showChangePassword?, .askToDelete?, .done?, .cancelDelete?: return .navigates
        case .signOut?, nil: return nil
        }
        let models = try context.accounts
        guard let user = context.user, let record = try models.users.find(id: user.id) else { return .reads }
        _ = try models.guards.passwordChecks.check(
            account: "user:\(record.id)", client: models.clientAddress, now: models.now, on: models.connection)
        if try models.passwords.verify(password, against: record.passwordHash), let new, AccountRules.passwordError(new) == nil {
            _ = try models.passwords.hash(new)
        }
        return .writes
    }
}
