import Navigation
import Synchronization

/// The events whose flows read (or wrote) when they last ran, by the screen they were sent from.
/// An event's first run is without a connection (`UnusedConnection`): a flow that reads nothing is
/// done there, and one that reads stops at its first statement and runs again on a connection,
/// after doing all its work up to that statement for nothing. These events skip that first run.
///
/// It also keeps the events whose coordinators declare nothing, so they are not asked again.
/// A hint is a guess and never changes an outcome: an event hinted as reading runs on a connection
/// whatever it does (as every event did before connection-free runs), and one not hinted that reads
/// runs again on a connection, as it would without hints. A hint, once noted, stays.
final class ConnectionHints: Sendable {
    struct Key: Hashable {
        let screen: String
        let event: String
    }

    private let reading = Mutex<Set<Key>>([])
    /// Events whose coordinators declared nothing (`Coordinator.prepare(for:_:)` gave nil) when
    /// asked: they are not asked again, which saves building an environment for the question.
    private let undeclared = Mutex<Set<Key>>([])

    /// Whether the event `key` names, sent from its screen, read when it last ran.
    func reads(_ key: Key) -> Bool { reading.withLock { $0.contains(key) } }

    /// `key`'s flow read: noted only for an event that the screen `key` names declares, or a
    /// system event, so that clients' made-up event names cannot grow the set.
    func noteReading(_ key: Key, app: NavigationApp) {
        guard Self.isDeclared(key, app) else { return }
        _ = reading.withLock { $0.insert(key) }
    }

    /// Whether asking `key`'s coordinators what they need gave nothing before.
    func declaresNothing(_ key: Key) -> Bool { undeclared.withLock { $0.contains(key) } }

    /// `key`'s coordinators declared nothing (noted for declared events only, as above).
    func noteDeclaresNothing(_ key: Key, app: NavigationApp) {
        guard Self.isDeclared(key, app) else { return }
        _ = undeclared.withLock { $0.insert(key) }
    }

    private static func isDeclared(_ key: Key, _ app: NavigationApp) -> Bool {
        SystemEvent.all.contains { $0.name == key.event } || key.event == SystemEvent.open.name
            || app.screens[key.screen]?.event(named: key.event) != nil
    }
}
