import Navigation

extension AppTester {
    /// Opens `link` on the live session, as a client does with the `open` system event from the
    /// top screen (a `LinkRejection` when it cannot be opened; nothing changes then).
    @discardableResult
    public mutating func open(_ link: String) async throws -> EventOutcome {
        try await send(SystemEvent.open.name, ["link": .string(link)])
    }

    /// The State without the session's `id` and `version`: what two sessions that reached the
    /// same screens by different ways (taps, a link) have alike.
    public var shown: JSONValue { .object(navigation.render(tree)) }
}
