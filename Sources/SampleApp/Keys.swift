import Navigation

// The children and tabs of the app's coordinators, declared once.

extension ChildKey {
    static let auth = ChildKey("auth")
    static let main = ChildKey("main")
    static let home = ChildKey("home")
    static let profile = ChildKey("profile")
    static let settings = ChildKey("settings")
}

extension TabKey {
    static let home = TabKey("home")
    static let profile = TabKey("profile")
}
