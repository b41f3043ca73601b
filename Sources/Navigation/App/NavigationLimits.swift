/// How large one session's tree may grow, so that no client can make a session (its memory,
/// its snapshot, every answer) grow without bound by pushing or loading more.
public struct NavigationLimits: Sendable, Hashable {
    /// Screens on every layer and tab together.
    public var maxScreens: Int
    /// Coordinators in the tree.
    public var maxCoordinators: Int

    /// Limits of `maxScreens` screens and `maxCoordinators` coordinators.
    public init(maxScreens: Int = 64, maxCoordinators: Int = 128) {
        self.maxScreens = maxScreens
        self.maxCoordinators = maxCoordinators
    }

    /// Throws `EventRejection.sessionLimit` when `tree` is past a limit.
    func check(_ tree: NavigationTree) throws {
        if tree.screenCount > maxScreens {
            throw EventRejection.sessionLimit("\(maxScreens) screens")
        }
        if tree.nodes.count > maxCoordinators {
            throw EventRejection.sessionLimit("\(maxCoordinators) coordinators")
        }
    }
}
