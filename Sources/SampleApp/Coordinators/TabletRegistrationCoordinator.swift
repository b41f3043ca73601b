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
        let email = event.payload.string("email").trimmed
        let password = event.payload.string("password")
        let displayName = event.payload.string("displayName").trimmed
        let error =
            try Rules.emailError(email) ?? (models.users.exists(email: email) ? Rules.emailTaken : nil)
            ?? Rules.passwordError(password) ?? Rules.displayNameError(displayName)
        let user = try error == nil
            ? models.users.create(
                email: email, passwordHash: models.passwords.hash(password), displayName: displayName, now: models.now)
            : nil
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
