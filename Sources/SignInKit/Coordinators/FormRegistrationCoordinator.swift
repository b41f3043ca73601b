import AccountProtection
import Navigation

/// Registration in one form (on tablets, with `SignInOptions.Registration.byPlatform`).
public struct FormRegistrationCoordinator: Coordinator {
    // The sample app stored sessions under this name before the kit existed.
    public static let typeName = "TabletRegistration"
    public typealias Output = NewAccount
    public static let screens: [any ScreenType.Type] = [SignUpFormScreen.self]

    public init() {}

    public enum Input: Equatable, Sendable {
        case submit(email: String, password: String, displayName: String, screen: ScreenID)
    }

    public static func input(for event: ScreenEvent) throws -> Input? {
        guard case .submit(let form) = try event.output(SignUpFormScreen.self) else { return nil }
        return .submit(
            email: EmailAddress.normalized(form.email), password: form.password, displayName: form.displayName.trimmed,
            screen: event.screen.id)
    }

    public mutating func start(_ context: inout Context) throws {
        try context.push(SignUpFormScreen.self, .init(email: "", displayName: ""))
    }

    /// `/signup` while registering: already there when on the first step.
    public mutating func open(_ link: Link, _ context: inout Context) throws -> Handling {
        link.opensRegistration && context.ownScreens.count == 1 ? .handled : .unhandled
    }

    /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
    public mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard let input = try Self.input(for: event) else { return .unhandled }
        try handle(input, &context)
        return .handled
    }

    public mutating func handle(_ input: Input, _ context: inout Context) throws {
        guard case .submit(let email, let password, let displayName, let screen) = input else { return }
        let models = try context.accounts
        var error = AccountRules.emailError(email) ?? AccountRules.passwordError(password) ?? AccountRules.displayNameError(displayName)
        var user: AccountRecord?
        if error == nil {
            // The limit first, so a client past it is refused before any hash. The run that asks
            // for the hash is rolled back (its token with it) and the event runs again once the
            // hash is prepared: only that run counts a try. A taken e-mail costs the same work.
            try models.guards.registrations.take(models.clientAddress, now: models.now, on: models.connection)
            let passwordHash = try models.passwords.hash(password)
            user = try models.users.create(email: email, passwordHash: passwordHash, displayName: displayName, now: models.now)
            if user == nil { error = AccountRules.emailTaken }
        }
        guard let user else {
            let shown = context.localized(error ?? AccountRules.emailTaken)
            try context.update(screen, as: SignUpFormScreen.self) {
                $0 = .init(email: email, displayName: displayName, error: shown)
            }
            return
        }
        context.giveDeviceToken(try models.guards.devices.issue(toUser: user.id, now: models.now, on: models.connection))
        context.signIn(SessionUser(id: user.id, displayName: user.displayName))
        finish(NewAccount(id: user.id, email: email, displayName: user.displayName), &context)
    }
}
