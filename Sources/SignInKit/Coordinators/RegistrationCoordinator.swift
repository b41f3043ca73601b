import AccountProtection
import Navigation

/// Kulman's registration coordinator: e-mail → password → profile, with a draft kept across
/// the steps so that `back` and forward again show what was entered. The draft holds the
/// password's Argon2id hash, never the password, and the hash is `@Confidential`: never journaled.
public struct RegistrationCoordinator: Coordinator {
    public static let typeName = "Registration"
    public typealias Output = NewAccount
    public static let screens: [any ScreenType.Type] = [SignUpEmailScreen.self, SignUpPasswordScreen.self, SignUpProfileScreen.self]
    var email = ""
    @Confidential var passwordHash: String?
    var displayName = ""
    var emailScreen: ScreenID?

    public init() {}

    public enum Input: Equatable, Sendable {
        case email(String, screen: ScreenID)
        case password(String, screen: ScreenID)
        case displayName(String, screen: ScreenID)
    }

    public static func input(for event: ScreenEvent) throws -> Input? {
        let screen = event.screen.id
        if case .next(let field) = try event.output(SignUpEmailScreen.self) {
            return .email(EmailAddress.normalized(field.email), screen: screen)
        }
        if case .next(let field) = try event.output(SignUpPasswordScreen.self) { return .password(field.password, screen: screen) }
        if case .finish(let field) = try event.output(SignUpProfileScreen.self) {
            return .displayName(field.displayName.trimmed, screen: screen)
        }
        return nil
    }

    public mutating func start(_ context: inout Context) throws {
        emailScreen = try context.push(SignUpEmailScreen.self, .init(email: email))
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
        let models = try context.accounts
        switch input {
        case .email(let email, let screen):
            // Every try counts, whatever the answer: "already registered" must not be a fast oracle.
            try models.guards.registrations.take(models.clientAddress, now: models.now, on: models.connection)
            if let error = try AccountRules.emailError(email) ?? (models.users.exists(email: email) ? AccountRules.emailTaken : nil) {
                let shown = context.localized(error)
                try context.update(screen, as: SignUpEmailScreen.self) { $0 = .init(email: email, error: shown) }
                return
            }
            self.email = email
            try context.update(screen, as: SignUpEmailScreen.self) { $0 = .init(email: email) }
            try context.push(SignUpPasswordScreen.self, .init())
        case .password(let password, let screen):
            if let error = AccountRules.passwordError(password) {
                let shown = context.localized(error)
                try context.update(screen, as: SignUpPasswordScreen.self) { $0.error = shown }
                return
            }
            // Each hash takes a registration token first, so looping `next`/`back` here is
            // refused (429) before any hash once the client is past its rate.
            try models.guards.registrations.take(models.clientAddress, now: models.now, on: models.connection)
            passwordHash = try models.passwords.hash(password)
            try context.update(screen, as: SignUpPasswordScreen.self) { $0.error = nil }
            try context.push(SignUpProfileScreen.self, .init(displayName: displayName))
        case .displayName(let name, let screen):
            displayName = name
            if let error = AccountRules.displayNameError(name) {
                let shown = context.localized(error)
                try context.update(screen, as: SignUpProfileScreen.self) { $0 = .init(displayName: name, error: shown) }
                return
            }
            guard let passwordHash,
                let user = try models.users.create(email: email, passwordHash: passwordHash, displayName: name, now: models.now)
            else {
                // Someone registered this e-mail since step 1.
                let shown = context.localized(AccountRules.emailTaken)
                try context.update(screen, as: SignUpProfileScreen.self) { $0 = .init(displayName: name, error: shown) }
                return
            }
            context.giveDeviceToken(try models.guards.devices.issue(toUser: user.id, now: models.now, on: models.connection))
            context.signIn(SessionUser(id: user.id, displayName: user.displayName))
            finish(NewAccount(id: user.id, email: email, displayName: user.displayName), &context)
        }
    }
}
