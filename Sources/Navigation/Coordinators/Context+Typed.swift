/// The typed face of `Context`: screens are named by their `ScreenType`, props are its `Props`.
extension Context {
    /// Pushes a `screen` showing `props` onto this coordinator's stack.
    @discardableResult
    public mutating func push<S: ScreenType>(_ screen: S.Type, _ props: S.Props) throws -> ScreenID {
        try push(S.definition, propsJSON: S.json(props), link: links.canonicalLink(name: S.name, props: props))
    }

    /// Pushes a screen that has no props.
    @discardableResult
    public mutating func push<S: ScreenType>(_ screen: S.Type) throws -> ScreenID where S.Props == NoProps {
        try push(S.definition, [:])
    }

    /// Presents a `screen` on a new layer over everything (a modal sheet, or an alert).
    @discardableResult
    public mutating func present<S: ScreenType>(_ screen: S.Type, _ props: S.Props, as presentation: Presentation = .modal)
        throws -> ScreenID
    {
        present(S.definition, propsJSON: try S.json(props), as: presentation, link: links.canonicalLink(name: S.name, props: props))
    }

    /// Presents a screen that has no props.
    @discardableResult
    public mutating func present<S: ScreenType>(_ screen: S.Type, as presentation: Presentation = .modal) -> ScreenID
    where S.Props == NoProps {
        present(S.definition, [:], as: presentation)
    }

    /// Replaces every layer with a root stack holding one `screen`.
    @discardableResult
    public mutating func setRoot<S: ScreenType>(_ screen: S.Type, _ props: S.Props) throws -> ScreenID {
        setRoot(S.definition, propsJSON: try S.json(props), link: links.canonicalLink(name: S.name, props: props))
    }

    /// Replaces every layer with a root stack holding one screen that has no props.
    @discardableResult
    public mutating func setRoot<S: ScreenType>(_ screen: S.Type) -> ScreenID where S.Props == NoProps {
        setRoot(S.definition, [:])
    }

    /// The props screen `id` shows, if it is a `screen`.
    public func props<S: ScreenType>(of id: ScreenID, as screen: S.Type) -> S.Props? {
        guard let shown = tree.screen(id), shown.name == S.name else { return nil }
        return try? JSONValue.decode(S.Props.self, from: .object(shown.props))
    }

    /// Changes the props of screen `id`, a `screen` (an `error` message, new field values).
    public mutating func update<S: ScreenType>(_ id: ScreenID, as screen: S.Type, _ change: (inout S.Props) -> Void) throws {
        guard var props = props(of: id, as: screen) else { throw NavigationError("no \(S.name) screen \(id)") }
        change(&props)
        try updateProps(id, propsJSON: try S.json(props))
    }
}

extension ScreenEvent {
    /// The event as `screen`'s output, when it comes from such a screen; nil otherwise.
    /// The payload was validated against the declaration before, so decoding it succeeds.
    @inlinable
    public func output<S: ScreenType>(_ screen: S.Type) throws -> S.Output? {
        guard self.screen.name == S.name else { return nil }
        // Inlinable, so specialized for each screen where a coordinator reads its output: made
        // generic, finding the event (the array's metadata, its indices, a copy of each element)
        // cost about 3,000 instructions an event.
        let events = S.Output.events
        for index in events.indices where events[index].name == name {
            return try events[index].make(.object(payload.values))
        }
        return nil
    }
}

/// A coordinator that turns its screens' outputs into its own input with a pure function,
/// `mapIO`, which a unit test calls without any I/O, and acts on that input in `handle(_:_:)`.
/// Outputs `mapIO` returns nil for travel up to the parent.
///
/// Deprecated: a coordinator handles events one way, in `handle(_:_:)`, reading each screen's
/// output with `event.output(Screen.self)`. A mapping worth a pure unit test stays a static
/// function of the coordinator's own, which `handle(_:_:)` calls.
@available(
    *, deprecated,
    message: "conform to Coordinator and write handle(_ event: ScreenEvent, _ context: inout Context) -> Handling; read outputs with event.output(Screen.self)"
)
public protocol InputMapping: Coordinator {
    associatedtype Input
    /// The input a screen's event means to this coordinator, or nil when it is not its concern.
    static func mapIO(_ event: ScreenEvent) throws -> Input?
    /// Acts on an input: navigates, mutates models through the environment, starts children.
    mutating func handle(_ input: Input, _ context: inout Context) throws
}

@available(*, deprecated)
extension InputMapping {
    /// Maps the event with `mapIO` and handles the input; `.unhandled` when `mapIO` returns nil.
    public mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard let input = try Self.mapIO(event) else { return .unhandled }
        try handle(input, &context)
        return .handled
    }
}

extension IncomingEvent {
    /// The event a client sends when `output` happens on screen `id`, a `screen`: drives a flow
    /// with typed values in a test (`IncomingEvent(Login.self, .submit(credentials), on: "s2")`).
    /// Throws when `output` is not one of the screen's declared events.
    public init<S: ScreenType>(_ screen: S.Type, _ output: S.Output, on id: ScreenID) throws {
        // Events from `@ScreenEvents` give their payload back; older declarations are guessed at.
        for event in S.Output.events {
            guard let payloadOf = event.payload else { continue }
            if let payload = try payloadOf(output) {
                self.init(screen: id, name: event.name, payload: payload)
                return
            }
        }
        // The payload a case carries, as the client would send it.
        let carried = Mirror(reflecting: output).children.first.flatMap { $0.value as? any Encodable }
        let payload = try carried.map { try JSONValue.encode($0) } ?? .null
        for event in S.Output.events where event.payload == nil {
            // The declared event whose decoding of that payload gives back this very output.
            guard let candidate = try? event.make(payload), "\(candidate)" == "\(output)" else { continue }
            self.init(screen: id, name: event.name, payload: event.fields.isEmpty ? .null : payload)
            return
        }
        throw NavigationError("\(output) is not an event of \(S.name)")
    }
}
