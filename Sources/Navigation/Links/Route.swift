/// A place in an app that a link names: usually an app's enum of its linkable screens
/// (`.post(id)`, `.settings`). Its coordinators turn it into navigation (`Coordinator.open`).
///
/// ```swift
/// enum AppRoute: Route {
///     case post(Int), settings
///     static let patterns: [LinkPattern<AppRoute>] = [
///         LinkPattern("/posts/{id}", shows: PostScreen.self, canonical: { .post($0.post.id) }) { .post(try $0.int("id")) },
///         LinkPattern("/settings") { _ in .settings },
///     ]
///     var link: String { ... }
///     var needsSignIn: Bool { true }
/// }
/// ```
public protocol Route: Codable, Hashable, Sendable {
    /// The patterns the app's links follow, each making a route of a path's parameters.
    static var patterns: [LinkPattern<Self>] { get }
    /// The route's canonical link (`/posts/1`), the one a client shows and shares.
    var link: String { get }
    /// True when only a signed-in user may open it: a signed-out session goes to sign-in first.
    var needsSignIn: Bool { get }
}

/// A route as a coordinator receives it in `open`: read it typed with `route(as:)`.
public struct Link: Sendable, CustomStringConvertible {
    /// The route, type-erased.
    public let route: any Route

    /// The link to `route` (to continue a link a flow kept, after sign-in say).
    public init(_ route: some Route) { self.route = route }

    /// The route, when it is an `R`.
    public func route<R: Route>(as type: R.Type) -> R? { route as? R }

    /// The route's canonical link.
    public var path: String { route.link }
    /// True when only a signed-in user may open it.
    public var needsSignIn: Bool { route.needsSignIn }
    public var description: String { path }
}
