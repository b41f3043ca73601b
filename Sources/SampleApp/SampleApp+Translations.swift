import Navigation
import SignInKit

extension SampleApp {
    /// The app's texts in German, with the sign-in kit's: the catalog's titles and labels, what
    /// its flows say (`Context.localized`), its tabs' titles.
    public static let translations = Translations([
        "de": [
            "Timeline": "Zeitleiste",
            "Everyone's posts, newest first, 20 at a time.": "Die Beiträge aller, die neuesten zuerst, 20 auf einmal.",
            "Posts": "Beiträge",
            "New post": "Neuer Beitrag",
            "Older posts": "Ältere Beiträge",
            "Refresh": "Aktualisieren",
            "Open": "Öffnen",
            "Post": "Beitrag",
            "One post.": "Ein Beitrag.",
            "Posted": "Veröffentlicht",
            "Author": "Verfasser",
            "A user and their posts.": "Ein Nutzer und seine Beiträge.",
            "Back to the timeline": "Zurück zur Zeitleiste",
            "What is on your mind?": "Was denken Sie gerade?",
            "Write a post of 1 to 500 characters.": "Schreiben Sie einen Beitrag mit 1 bis 500 Zeichen.",
            "Cancel": "Abbrechen",
            "Profile": "Profil",
            "The signed-in user.": "Der angemeldete Nutzer.",
            "Account": "Konto",
            "Edit name": "Namen ändern",
            "Change the display name.": "Den Anzeigenamen ändern.",
            "Home": "Start",
            "A post has 1 to 500 characters.": "Ein Beitrag hat 1 bis 500 Zeichen.",
            "Delete your account and all your posts? Enter your password to confirm.":
                "Ihr Konto und alle Ihre Beiträge löschen? Geben Sie zur Bestätigung Ihr Passwort ein.",
        ]
    ]).merging(SignInKit.translations)
}
