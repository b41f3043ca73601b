/// A coordinator: owns the screens it shows and its child coordinators, decides what comes next,
/// and performs model mutations through its environment. It is a `Codable` value so that a
/// session's tree can be snapshotted; `typeName` and `schemaVersion` name its encoding.
public protocol Coordinator: Codable, Equatable, Sendable {
    /// What it reports to its parent when it finishes (`finish(_:_:)`); `Never` for a
    /// coordinator that never finishes. Its parent reads it with `ChildOutput.as(_:)`.
    associatedtype Output: Sendable = Never

    /// The stable name its snapshots are stored under. By default the type's name without its
    /// `Coordinator` suffix (`CheckoutCoordinator` → `Checkout`). Declare it before renaming the
    /// type, so that stored sessions still find it.
    static var typeName: String { get }
    /// Bump when the encoded state changes shape; older snapshots are then upgraded by `migrate`,
    /// or, when it gives nothing, fall back to a fresh start.
    static var schemaVersion: Int { get }
    /// The coordinator types this one starts (its children), and the screen types it shows: an
    /// app's lists are derived from its root's (`NavigationApp(root:)`), each type once.
    /// None by default (an app that lists its types by hand needs none).
    static var children: [any Coordinator.Type] { get }
    /// The screen types this coordinator shows (see `children`).
    static var screens: [any ScreenType.Type] { get }

    /// This type's state as stored with schema `version` (its previous one), made into the form
    /// of schema `version + 1`; nil when that older form cannot be upgraded. Runs once per
    /// version step, oldest first, when a snapshot stored by an earlier build is restored.
    static func migrate(_ state: JSONValue, fromSchema version: Int) throws -> JSONValue?

    /// Shows the first screen, or starts the first child.
    mutating func start(_ context: inout Context) throws

    /// Handles an event from one of its screens, or one a descendant did not handle
    /// (the coordinating-responder chain). `.unhandled` passes it on to the parent.
    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling

    /// A child finished with `output` (read it typed with `output.as(ChildType.self)`), or the
    /// runtime cancelled it (`output.isCancelled`: the user removed all its screens); the child
    /// and its screens are already gone.
    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws

    /// The user removed one of its screens with `back` or `dismiss`; keep drafts consistent.
    mutating func screenRemoved(_ screen: Screen, _ context: inout Context)

    /// The user selected a tab of a tab layer this coordinator owns.
    mutating func tabSelected(_ tab: TabKey, _ context: inout Context)

    /// One of its screens is on top again after an event uncovered it (`back`, `dismiss`,
    /// `selectTab`, a pop): the place to refresh what it shows (UIKit's `viewWillAppear`).
    mutating func screenAppeared(_ screen: Screen, _ context: inout Context) throws

    /// Opens `link` (read it with `link.route(as:)`): navigates to the screen it names with the
    /// calls a flow makes, changing only what differs, or delegates it to a child with
    /// `context.open(_:inChild:)`. The root's runs first; `.unhandled` refuses the link (`422`).
    mutating func open(_ link: Link, _ context: inout Context) throws -> Handling

    /// An effect this coordinator asked for (`context.perform`) finished, after the event that
    /// asked committed: read it typed with `result.as(EffectType.self)`. It comes as an event of
    /// its own, whatever screen is on top. `.unhandled` passes it to the parent, as events go up
    /// the chain; so does a coordinator that finished before the result came back.
    mutating func effectFinished(_ result: EffectResult, _ context: inout Context) throws -> Handling

    /// What handling `event` needs before the flow runs, declared so that the flow runs once:
    /// called before the run, owner first and then up the chain (as `handle` is), with what
    /// the event will see. Ask here for the slow work the flow will ask for, with the same calls
    /// (a password hash or check, `context.prepared`): it is done before the run, whose calls
    /// then find it. Return how the flow reaches the store (`EventAccess`), or nil when the
    /// event is not this coordinator's. It may read; it must not write. nil by default: the
    /// session service then finds out by running the flow (and runs it again after any work).
    func prepare(for event: ScreenEvent, _ context: Context) throws -> EventAccess?
}

/// How a flow reaches the store while it handles an event (`Coordinator.prepare(for:_:)`): the
/// session service runs it where it can do so, once.
public enum EventAccess: Sendable, Comparable {
    /// It only navigates: it runs with no connection at all.
    case navigates
    /// It reads committed data: it runs on a reader, off the writer.
    case reads
    /// It writes models (or may): it runs on the writer, its writes committed with the session.
    case writes
}

extension Coordinator {
    /// The type's name without its `Coordinator` suffix (`CheckoutCoordinator` → `Checkout`).
    public static var typeName: String { TypeNames.derived(from: Self.self, dropping: "Coordinator", lowerFirst: false) }
    /// Version 1 unless a coordinator says otherwise.
    public static var schemaVersion: Int { 1 }
    /// None unless a coordinator declares them.
    public static var children: [any Coordinator.Type] { [] }
    /// None unless a coordinator declares them.
    public static var screens: [any ScreenType.Type] { [] }
    /// No migration unless a coordinator declares one: an older snapshot falls back to a fresh start.
    public static func migrate(_ state: JSONValue, fromSchema version: Int) throws -> JSONValue? { nil }
    /// Does nothing by default.
    public mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {}
    /// Does nothing by default.
    public mutating func screenRemoved(_ screen: Screen, _ context: inout Context) {}
    /// Does nothing by default.
    public mutating func tabSelected(_ tab: TabKey, _ context: inout Context) {}
    /// Does nothing by default.
    public mutating func screenAppeared(_ screen: Screen, _ context: inout Context) throws {}
    /// Declares nothing by default.
    public func prepare(for event: ScreenEvent, _ context: Context) throws -> EventAccess? { nil }
    /// Passes the result to the parent by default.
    public mutating func effectFinished(_ result: EffectResult, _ context: inout Context) throws -> Handling { .unhandled }

    /// Finishes this coordinator with `output`: once its current call returns, it and all its
    /// screens are removed and its parent's `childFinished` runs with the output.
    public func finish(_ output: Output, _ context: inout Context) {
        context.finish(ChildOutput(finishedBy: Self.self, output))
    }

    func isEqual(to other: any Coordinator) -> Bool {
        // Not `(other as? Self) == self`: that cast and the optional comparison cost ~2,000
        // instructions in the runtime's generic paths, paid after most handlers ran.
        func equal<Other: Coordinator>(_ other: Other) -> Bool {
            guard Other.self == Self.self else { return false }
            return withUnsafePointer(to: other) { $0.withMemoryRebound(to: Self.self, capacity: 1) { $0.pointee == self } }
        }
        return equal(other)
    }
}

/// Whether a coordinator handled an event or passes it up the chain.
public enum Handling: Sendable {
    case handled
    case unhandled
}

/// An event from the top screen, with its payload validated, on its way up the chain.
/// Read it as the screen's typed output with `output(_:)`.
public struct ScreenEvent: Sendable, Hashable {
    /// The screen that reported it.
    public let screen: Screen
    /// The event's name.
    public let name: String
    /// The payload, validated against the event's declaration.
    public let payload: Payload

    init(screen: Screen, name: String, payload: Payload) {
        self.screen = screen
        self.name = name
        self.payload = payload
    }

    /// The event `name` with `payload` from a `screen` (for testing a coordinator's mapping of events
    /// without a tree): throws the `422` rejection a client would get for a wrong payload.
    public init<S: ScreenType>(
        from screen: S.Type, _ name: String, _ payload: JSONValue = .null, id: ScreenID = "s1", owner: CoordinatorID = 1
    ) throws {
        guard let declaration = S.definition.event(named: name) else {
            throw EventRejection.undeclaredEvent(event: name, accepted: S.Output.events.map(\.name))
        }
        self.init(
            screen: Screen(id: id, name: S.name, props: [:], owner: owner), name: name,
            payload: try Payload.validate(payload, against: declaration).get())
    }
}

/// Where a child coordinator shows its screens.
public enum Placement: Sendable, Hashable {
    /// On the stack where its parent's screens are.
    case current
    /// On the stack of a tab of the tab layer its parent owns.
    case tab(TabKey)
    /// On a new modal layer that goes when the child does.
    case modal
}
