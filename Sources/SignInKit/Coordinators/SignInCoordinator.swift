import AccountProtection
import Navigation

/// Khanlou's auth coordinator: first run, sign-in, and the registration child.
/// Finishes with `signedIn` once the session has a user, handing back the link that sent the
/// user here (`returnTo`, Kratos' `return_to`), which is dropped if they back out of sign-in.
/// `Links` are the app's routes (`NoLinks` for an app without).
public struct SignInCoordinator<Links: SignInRoute>: Coordinator {
    // The sample app stored sessions under this name before the kit existed.
    public static var typeName: String { "Auth" }
    public static var children: [any Coordinator.Type] { [RegistrationCoordinator.self, FormRegistrationCoordinator.self] }
    public static var screens: [any ScreenType.Type] { [FirstRunScreen.self, LoginScreen.self] }
    /// The link to continue once signed in (by signing in or registering).
    var returnTo: Links?

    public init() {}

    public enum Output: Equatable, Sendable {
        /// Signed in, with the link to continue; `registered` for a user who just registered.
        case signedIn(continuing: Links?, registered: NewAccount? = nil)
    }

    public enum Input: Equatable, Sendable {
        case showLogin
        case register
        case signIn(email: String, password: String, screen: ScreenID)
    }

    public static func input(for event: ScreenEvent) throws -> Input? {
        switch try event.output(FirstRunScreen.self) {
        case .logIn: return .showLogin
        case .signUp: return .register
        case nil: break
        }
        switch try event.output(LoginScreen.self) {
        case .submit(let credentials):
            let email = EmailAddress.normalized(credentials.email)
            // No account has a longer address (registration refuses one): refused before it is
            // looked up, keyed or counted, with the same answer whatever the account.
            guard email.utf8.count <= EmailBounds.maxBytes else {
                throw EventRejection.invalidPayload(
                    [FieldError(field: "email", message: "must have at most \(EmailBounds.maxBytes) bytes")])
            }
            return .signIn(email: email, password: credentials.password, screen: event.screen.id)
        case .signUp: return .register
        case nil: return nil
        }
    }

    /// The first-run screen: the whole app's (every layer replaced) when started on the root
    /// stack, as the sample app does while signed out; pushed on its tab or modal sheet otherwise.
    public mutating func start(_ context: inout Context) throws {
        if context.startedInTabOrModal {
            try context.push(FirstRunScreen.self)
        } else {
            context.setRoot(FirstRunScreen.self)
        }
    }

    /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
    public mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard let input = try Self.input(for: event) else { return .unhandled }
        try handle(input, &context)
        return .handled
    }

    public mutating func handle(_ input: Input, _ context: inout Context) throws {
        switch input {
        case .showLogin: try context.push(LoginScreen.self, .init(email: ""))
        case .register: try startRegistration(&context)
        case .signIn(let email, let password, let screen): try signIn(email: email, password: password, screen: screen, &context)
        }
    }

    public mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        // Either registration flow (steps or one form) finishes with the `NewAccount`.
        if let account = output.value(as: NewAccount.self) {
            finish(.signedIn(continuing: returnTo, registered: account), &context)
        }
    }

    /// `/signup` shows registration over the first screen; any other link shows sign-in there and
    /// is kept to continue after it. Only what differs from that stack changes.
    public mutating func open(_ link: Link, _ context: inout Context) throws -> Handling {
        guard let route = link.route(as: Links.self) else { return .unhandled }
        if route.opensRegistration {
            returnTo = nil
            if context.hasChild(.registration), context.ownScreens.count == 1,
                case .handled = try context.open(link, inChild: .registration)
            {
                return .handled
            }
            context.stopChild(.registration)
            try context.popToRoot()
            try startRegistration(&context)
            return .handled
        }
        returnTo = route
        context.stopChild(.registration)
        let shown = context.ownScreens
        if shown.count == 2, shown[1].name == LoginScreen.name { return .handled }
        try context.popToRoot()
        try context.push(LoginScreen.self, .init(email: ""))
        return .handled
    }

    /// Backing out of sign-in drops the link it was for.
    public mutating func screenRemoved(_ screen: Screen, _ context: inout Context) {
        if screen.name == LoginScreen.name { returnTo = nil }
    }

    /// Steps or one form, as the app chose; `byPlatform` is Khanlou's per-platform swap:
    /// tablets register in one form.
    private func startRegistration(_ context: inout Context) throws {
        guard !context.hasChild(.registration) else { return }
        let oneForm: Bool
        switch try context.accounts.options.registration {
        case .steps: oneForm = false
        case .oneForm: oneForm = true
        case .byPlatform: oneForm = context.platform == .tablet
        }
        if oneForm {
            try context.startChild(.registration, FormRegistrationCoordinator())
        } else {
            try context.startChild(.registration, RegistrationCoordinator())
        }
    }

    /// The same answer, after the same Argon2id work, for an unknown e-mail and a wrong password.
    /// Failures slow down further tries of that account from that client (`FailureThrottle`),
    /// and count even when the event is refused afterwards. A device that signed in to the
    /// account before is judged on its own failures (`DeviceCredentials`); one that signs in now
    /// gets a credential.
    private func signIn(email: String, password: String, screen: ScreenID, _ context: inout Context) throws {
        let models = try context.accounts
        let account = EmailAddress.key(email)
        // No account has a longer key (registration refuses one): unknown, without a lookup.
        let user = account.utf8.count <= EmailBounds.maxKeyBytes ? try models.users.find(email: email) : nil
        let device = try user.flatMap {
            try models.guards.devices.credential(models.deviceToken, ofUser: $0.id, now: models.now, on: models.connection)
        }
        let attempt = try models.guards.signIns.check(
            account: account, client: models.clientAddress, device: device?.id, now: models.now, on: models.connection)
        let matches = try models.passwords.verify(password, against: user?.passwordHash ?? models.dummyHash)
        guard let user, matches else {
            try models.guards.signIns.recordFailure(attempt, now: models.now, lasting: models.lasting)
            SignInMetrics.signInFailed()
            let shown = context.localized(AccountRules.wrongCredentials)
            try context.update(screen, as: LoginScreen.self) { $0 = .init(email: email, error: shown) }
            return
        }
        try models.guards.signIns.recordSuccess(attempt, on: models.connection)
        if models.passwords.needsRehash(user.passwordHash) {
            try models.users.update(id: user.id, passwordHash: models.passwords.hash(password))
        }
        if let device {
            try models.guards.devices.used(device, now: models.now, on: models.connection)
        } else {
            context.giveDeviceToken(try models.guards.devices.issue(toUser: user.id, now: models.now, on: models.connection))
        }
        context.signIn(SessionUser(id: user.id, displayName: user.displayName))
        finish(.signedIn(continuing: returnTo), &context)
    }
}

extension ChildKey {
    /// The registration flow, a child of the sign-in flow.
    static let registration = ChildKey("registration")
}
