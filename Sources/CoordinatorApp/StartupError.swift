/// A reason the server does not start, said in one line (a mistake in the app's settings, an
/// unusable database): `serve` prints it and exits with status 1.
package struct StartupError: Error, CustomStringConvertible {
    package let description: String

    package init(description: String) { self.description = description }
}
