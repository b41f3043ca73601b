import CoordinatorApp
import Foundation
import Navigation
import SignInKit
import Store

/// The app: its screens and coordinators, its migrations, and how coordinatord serves it.
public enum Greeter {
    /// Its screens and coordinators are those the root reaches (each coordinator declares the
    /// `children` it starts and the `screens` it shows).
    public static let navigation = NavigationApp(
        reachableFrom: { _ in AppCoordinator() },
        // A signed-in user exists while their row does.
        userTable: SignInKit.userTable
    )
    .translated(translations)

    /// The app's texts in German (section 15), with the sign-in kit's.
    public static let translations = Translations([
        "de": [
            "Asks for a name.": "Fragt nach einem Namen.",
            "Greets the visitor.": "Begrüßt den Besucher.",
            "Tell me your name.": "Sagen Sie mir Ihren Namen.",
            "Tell me a name of up to 50 characters.": "Sagen Sie mir einen Namen mit bis zu 50 Zeichen.",
        ]
    ]).merging(SignInKit.translations)

    public static func migrations(for dialect: SQLDialect) throws -> [Migration] {
        try Migration.load(files: EmbeddedFiles.files(in: "Migrations/" + dialect.rawValue), scope: "greeter")
    }

    /// Served with the sign-in kit's tables and models (`signingIn`). Its own models are
    /// `EventModel`s, built for each event on its connection: nothing to register.
    public static let served = ServedApp(name: "greeter", navigation: navigation, migrations: { try migrations(for: $0) })
        .signingIn()
}
