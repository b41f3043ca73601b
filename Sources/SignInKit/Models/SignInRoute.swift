import Navigation

/// An app's links as the sign-in kit reads them: a link that needs sign-in is kept through it
/// (and continued after), and the one that opens registration is opened without it.
public protocol SignInRoute: Route {
    /// True for the link that opens registration (`/signup`); false for every other.
    var opensRegistration: Bool { get }
    /// True for the link that shows the account's settings (`/settings`), which an open
    /// settings flow handles itself (back to its first screen); false for every other (the default).
    var opensAccountSettings: Bool { get }
}

extension SignInRoute {
    public var opensAccountSettings: Bool { false }
}

/// The routes of an app that declares no links: there are none.
public enum NoLinks: SignInRoute {
    public static let patterns: [LinkPattern<NoLinks>] = []
    public var link: String { switch self {} }
    public var needsSignIn: Bool { switch self {} }
    public var opensRegistration: Bool { switch self {} }

    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an app without links has no route"))
    }

    public func encode(to encoder: any Encoder) throws { switch self {} }
}

extension Link {
    /// True when this link opens registration.
    var opensRegistration: Bool { (route as? any SignInRoute)?.opensRegistration == true }
    /// True when this link shows the account's settings.
    var opensAccountSettings: Bool { (route as? any SignInRoute)?.opensAccountSettings == true }
}
