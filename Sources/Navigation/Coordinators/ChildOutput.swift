/// What a parent hears when a child coordinator finishes (Kulman's and Khanlou's `didFinish`):
/// the child's typed `Output`, or the runtime's own cancellation when the user backed out of or
/// dismissed every screen the child showed. A child's `Output` may have a case named `cancelled`
/// of its own: it is told apart from the runtime's, which is `isCancelled`.
public struct ChildOutput: Sendable {
    /// The `typeName` of the coordinator that finished; nil for the runtime's cancellation.
    public let coordinatorType: String?
    private let value: (any Sendable)?

    package init<C: Coordinator>(finishedBy coordinator: C.Type, _ output: C.Output) {
        coordinatorType = C.typeName
        value = output
    }

    private init() {
        coordinatorType = nil
        value = nil
    }

    /// The runtime removed the child because none of its screens is left.
    public static let cancelled = ChildOutput()

    /// True when the runtime removed the child (no screen of it was left), not the child itself.
    public var isCancelled: Bool { coordinatorType == nil }

    /// The output of a `coordinator` child, or nil when another type of child finished (or the
    /// runtime cancelled it).
    public func `as`<C: Coordinator>(_ coordinator: C.Type) -> C.Output? {
        guard coordinatorType == C.typeName else { return nil }
        return value as? C.Output
    }

    /// The output as a value of `type`, whichever child finished with it: for children of
    /// several types that share one output type (a phone and a tablet variant of one flow).
    public func value<Output: Sendable>(as type: Output.Type) -> Output? {
        value as? Output
    }
}
