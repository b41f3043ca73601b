import Navigation

/// Registration on tablets: the whole flow in one form.
struct TabletRegistrationCoordinator: Coordinator {
    static let typeName = "TabletRegistration"

    mutating func start(_ context: inout Context) throws {
        try context.push(Screens.signUpForm, ["email": "", "displayName": "", "error": nil])
    }

    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard event.name == "submit" else { return .unhandled }
        let models = try context.models
        let email = EmailAddress.normalized(event.payload.string("email"))
        let password = event.payload.string("password")
        let displayName = event.payload.string("displayName").trimmed
        var error = Rules.emailError(email) ?? Rules.passwordError(password) ?? Rules.displayNameError(displayName)
        var user: UserRecord?
        if error == nil {
            // Hashed before the limit and the lookup: the event runs again once the hash is
            // prepared, and only that run counts a try; a taken e-mail costs the same work.
            let passwordHash = try models.passwords.hash(password)
            try models.guards.registrations.take(models.clientAddress, now: models.now)
            user = try models.users.create(email: email, passwordHash: passwordHash, displayName: displayName, now: models.now)
            if user == nil { error = Rules.emailTaken }
        }
        guard let user else {
            try context.updateProps(event.screen.id) {
                $0 = ["email": .string(email), "displayName": .string(displayName), "error": .string(error ?? Rules.emailTaken)]
            }
            return .handled
        }
        context.signIn(SessionUser(id: user.id, displayName: user.displayName))
        context.finish(CoordinatorOutput("registered"))
        return .handled
    }
}
