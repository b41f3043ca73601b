import Navigation

/// Khanlou's auth coordinator: first run, sign-in, and the registration child.
/// Finishes with `signedIn` once the session has a user.
struct AuthCoordinator: InputMapping {
    static let typeName = "Auth"

    enum Output: Equatable {
        case signedIn
    }

    enum Input: Equatable {
        case showLogin
        case register
        case signIn(email: String, password: String, screen: ScreenID)
    }

    static func mapIO(_ event: ScreenEvent) throws -> Input? {
        switch try event.output(FirstRunScreen.self) {
        case .logIn: return .showLogin
        case .signUp: return .register
        case nil: break
        }
        switch try event.output(LoginScreen.self) {
        case .submit(let credentials):
            return .signIn(
                email: EmailAddress.normalized(credentials.email), password: credentials.password, screen: event.screen.id)
        case .signUp: return .register
        case nil: return nil
        }
    }

    mutating func start(_ context: inout Context) throws {
        context.setRoot(FirstRunScreen.self)
    }

    mutating func handle(_ input: Input, _ context: inout Context) throws {
        switch input {
        case .showLogin: try context.push(LoginScreen.self, .init(email: ""))
        case .register: try startRegistration(&context)
        case .signIn(let email, let password, let screen): try signIn(email: email, password: password, screen: screen, &context)
        }
    }

    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        // Either registration flow (phone or tablet) finishes with a `Registered`.
        if output.value(as: Registered.self) != nil { finish(.signedIn, &context) }
    }

    /// Khanlou's per-platform swap: tablets register in one form.
    private func startRegistration(_ context: inout Context) throws {
        guard !context.hasChild(.registration) else { return }
        if context.platform == .tablet {
            try context.startChild(.registration, TabletRegistrationCoordinator())
        } else {
            try context.startChild(.registration, RegistrationCoordinator())
        }
    }

    /// The same answer, after the same Argon2id work, for an unknown e-mail and a wrong password.
    /// Failures slow down further tries of that account from that client (`FailureThrottle`).
    private func signIn(email: String, password: String, screen: ScreenID, _ context: inout Context) throws {
        let models = try context.models
        let account = EmailAddress.key(email)
        try models.guards.signIns.check(account: account, client: models.clientAddress, now: models.now, on: models.connection)
        let user = try models.users.find(email: email)
        let matches = try models.passwords.verify(password, against: user?.passwordHash ?? models.dummyHash)
        guard let user, matches else {
            try models.guards.signIns.recordFailure(
                account: account, client: models.clientAddress, now: models.now, on: models.connection)
            AppMetrics.signInFailed()
            try context.update(screen, as: LoginScreen.self) { $0 = .init(email: email, error: Rules.wrongCredentials) }
            return
        }
        try models.guards.signIns.recordSuccess(account: account, client: models.clientAddress, on: models.connection)
        if models.passwords.needsRehash(user.passwordHash) {
            try models.users.update(id: user.id, passwordHash: models.passwords.hash(password))
        }
        context.signIn(SessionUser(id: user.id, displayName: user.displayName))
        finish(.signedIn, &context)
    }
}
