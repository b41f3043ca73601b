import Navigation

/// Kulman's registration coordinator: e-mail → password → profile, with a draft kept across
/// the steps so that `back` and forward again show what was entered. The draft holds the
/// password's Argon2id hash, never the password.
struct RegistrationCoordinator: Coordinator {
    static let typeName = "Registration"
    var email = ""
    var passwordHash: String?
    var displayName = ""
    var emailScreen: ScreenID?

    mutating func start(_ context: inout Context) throws {
        emailScreen = try context.push(Screens.signUpEmail, ["email": .string(email), "error": nil])
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        let models = try context.models
        let screen = event.screen.id
        switch (event.screen.name, event.name) {
        case ("signUp.email", "next"):
            let email = EmailAddress.normalized(event.payload.string("email"))
            // Every try counts, whatever the answer: "already registered" must not be a fast oracle.
            try models.guards.registrations.take(models.clientAddress, now: models.now)
            if let error = try Rules.emailError(email) ?? (models.users.exists(email: email) ? Rules.emailTaken : nil) {
                try context.updateProps(screen) { $0 = ["email": .string(email), "error": .string(error)] }
                return .handled
            }
            self.email = email
            try context.updateProps(screen) { $0 = ["email": .string(email), "error": nil] }
            try context.push(Screens.signUpPassword, ["error": nil])
        case ("signUp.password", "next"):
            let password = event.payload.string("password")
            if let error = Rules.passwordError(password) {
                try context.updateProps(screen) { $0["error"] = .string(error) }
                return .handled
            }
            passwordHash = try models.passwords.hash(password)
            try context.updateProps(screen) { $0["error"] = .null }
            try context.push(Screens.signUpProfile, ["displayName": .string(displayName), "error": nil])
        case ("signUp.profile", "finish"):
            displayName = event.payload.string("displayName").trimmed
            if let error = Rules.displayNameError(displayName) {
                try context.updateProps(screen) { $0 = ["displayName": .string(displayName), "error": .string(error)] }
                return .handled
            }
            guard let passwordHash,
                let user = try models.users.create(
                    email: email, passwordHash: passwordHash, displayName: displayName, now: models.now)
            else {
                // Someone registered this e-mail since step 1.
                try context.updateProps(screen) { $0 = ["displayName": .string(displayName), "error": .string(Rules.emailTaken)] }
                return .handled
            }
            context.signIn(SessionUser(id: user.id, displayName: user.displayName))
            context.finish(CoordinatorOutput("registered"))
        default:
            return .unhandled
        }
        return .handled
    }
}
