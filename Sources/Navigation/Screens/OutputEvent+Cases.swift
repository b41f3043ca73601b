/// The events `@ScreenEvents` declares (module `NavigationMacros`): besides decoding a payload
/// into an output, each reads an output of its case back into the payload a client sends.
extension OutputEvent {
    /// An event without payload whose output `matches` tells apart.
    public static func event(_ name: String, _ output: Output, is matches: @escaping @Sendable (Output) -> Bool) -> Self {
        var event = Self.event(name, output)
        event.payload = { matches($0) ? .null : nil }
        return event
    }

    /// An event whose payload decodes to `Payload`; `payload` gives an output's payload back,
    /// or nil for an output of another case.
    public static func event<Payload: Codable & Sendable>(
        _ name: String, _ make: @escaping @Sendable (Payload) -> Output,
        payload: @escaping @Sendable (Output) -> Payload?
    ) -> Self {
        var event = Self.event(name, make)
        event.payload = { output in try payload(output).map { try JSONValue.encode($0) } }
        return event
    }
}
