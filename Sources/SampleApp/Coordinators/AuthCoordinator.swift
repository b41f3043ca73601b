import Navigation

/// Khanlou's auth coordinator: first run, sign-in, and the registration child.
/// Finishes with `signedIn` once the session has a user.
struct AuthCoordinator: Coordinator {
    static let typeName = "Auth"

    mutating func start(_ context: inout Context) throws {
        context.setRoot(Screens.firstRun)
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        switch (event.screen.name, event.name) {
        case ("firstRun", "logIn"):
            try context.push(Screens.login, ["email": "", "error": nil])
        case (_, "signUp"):
            try startRegistration(&context)
        case ("login", "submit"):
            try signIn(
                email: EmailAddress.normalized(event.payload.string("email")), password: event.payload.string("password"),
                screen: event.screen.id, &context)
        default:
            return .unhandled
        }
        return .handled
    }

    mutating func childFinished(_ key: String, output: CoordinatorOutput, _ context: inout Context) throws {
        if output.name == "registered" { context.finish(CoordinatorOutput("signedIn")) }
    }

    /// Khanlou's per-platform swap: tablets register in one form.
    private func startRegistration(_ context: inout Context) throws {
        guard !context.hasChild("registration") else { return }
        if context.platform == .tablet {
            try context.startChild("registration", TabletRegistrationCoordinator())
        } else {
            try context.startChild("registration", RegistrationCoordinator())
        }
    }

    /// The same answer, after the same Argon2id work, for an unknown e-mail and a wrong password.
    /// Failures slow down further tries of that account from that client (`FailureThrottle`).
    private func signIn(email: String, password: String, screen: ScreenID, _ context: inout Context) throws {
        let models = try context.models
        let account = EmailAddress.key(email)
        try models.guards.signIns.check(account: account, client: models.clientAddress, now: models.now)
        let user = try models.users.find(email: email)
        let matches = try models.passwords.verify(password, against: user?.passwordHash ?? models.dummyHash)
        guard let user, matches else {
            models.guards.signIns.recordFailure(account: account, client: models.clientAddress, now: models.now)
            AppMetrics.signInFailed()
            try context.updateProps(screen) {
                $0["email"] = .string(email)
                $0["error"] = .string(Rules.wrongCredentials)
            }
            return
        }
        models.guards.signIns.recordSuccess(account: account, client: models.clientAddress)
        if models.passwords.needsRehash(user.passwordHash) {
            try models.users.update(id: user.id, passwordHash: models.passwords.hash(password))
        }
        context.signIn(SessionUser(id: user.id, displayName: user.displayName))
        context.finish(CoordinatorOutput("signedIn"))
    }
}
