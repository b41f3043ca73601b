import Navigation

extension SignInKit {
    /// The kit's texts in German: its screens' titles, labels and summaries, and what its flows
    /// say (`AccountRules`' messages, the default deletion warning). An app merges them into its
    /// own (`Translations(…).merging(SignInKit.translations)`), whose entries win.
    public static let translations = Translations([
        "de": [
            // Titles, labels, summaries.
            "Welcome": "Willkommen",
            "Welcome: sign up or log in.": "Willkommen: registrieren oder anmelden.",
            "Create an account": "Konto erstellen",
            "Log in": "Anmelden",
            "Sign in with e-mail and password.": "Mit E-Mail-Adresse und Passwort anmelden.",
            "E-mail": "E-Mail-Adresse",
            "Password": "Passwort",
            "Error": "Fehler",
            "Continue": "Weiter",
            "Choose a password": "Passwort wählen",
            "Your name": "Ihr Name",
            "Display name": "Anzeigename",
            "Create account": "Konto erstellen",
            "Registration step 1: e-mail.": "Registrierung, Schritt 1: E-Mail-Adresse.",
            "Registration step 2: a password of 15 to 128 characters.":
                "Registrierung, Schritt 2: ein Passwort mit 15 bis 128 Zeichen.",
            "Registration step 3: display name.": "Registrierung, Schritt 3: Anzeigename.",
            "Registration in one form (tablet).": "Registrierung in einem Formular (Tablet).",
            "Settings": "Einstellungen",
            "Account settings.": "Kontoeinstellungen.",
            "Change password": "Passwort ändern",
            "Change the password.": "Das Passwort ändern.",
            "Current password": "Aktuelles Passwort",
            "New password": "Neues Passwort",
            "Save": "Speichern",
            "Sign out": "Abmelden",
            "Delete account": "Konto löschen",
            "Done": "Fertig",
            "Delete your account?": "Konto löschen?",
            "Alert: confirm deleting the account with the password.": "Hinweis: das Löschen des Kontos mit dem Passwort bestätigen.",
            "Message": "Nachricht",
            "Keep it": "Behalten",
            // What the flows say.
            "Enter a valid e-mail address.": "Geben Sie eine gültige E-Mail-Adresse ein.",
            "Use a password of 15 to 128 characters.": "Verwenden Sie ein Passwort mit 15 bis 128 Zeichen.",
            "Use a display name of 1 to 50 characters.": "Verwenden Sie einen Anzeigenamen mit 1 bis 50 Zeichen.",
            "Use at most 4 accents on one letter.": "Verwenden Sie höchstens 4 Akzente auf einem Buchstaben.",
            "This e-mail is already registered.": "Diese E-Mail-Adresse ist bereits registriert.",
            "Wrong e-mail or password.": "Falsche E-Mail-Adresse oder falsches Passwort.",
            "The password is not correct.": "Das Passwort ist nicht richtig.",
            "Delete your account? Enter your password to confirm.":
                "Konto löschen? Geben Sie zur Bestätigung Ihr Passwort ein.",
        ]
    ])
}
