import Navigation

/// Declares a screen's events once, as the cases of its `Output` enum: the wire name of each
/// event is its case name, so a typo cannot make the catalog and the code disagree.
///
/// ```swift
/// @ScreenEvents
/// public enum Output {
///     case submit(Credentials)          // one unlabelled Codable struct: the payload itself
///     case signUp                       // no payload
///     case openClinic(id: Int)          // labelled values: the payload {"id": 3}
///     case move(from: Int, to: Int)     // {"from": 1, "to": 2}
///     case search(text: String?)        // an optional value is an optional field
///     case signIn(email: Identifier, password: Password)
/// }
/// ```
///
/// It adds `events` (in declaration order) and the `ScreenOutput` conformance. For each case
/// with labelled values it adds a `Codable` struct named after the case (`OpenClinicPayload`)
/// whose fields are the labels, so the catalog declares them, and a payload is validated
/// (`422` for a missing, mistyped or undeclared field) and decoded exactly as a struct payload.
/// Property wrappers cannot go on case labels: a labelled value of type `Identifier` or
/// `Password` is that kind of field (read it with `.wrappedValue`); other per-field rules need
/// a struct payload. `IncomingEvent(Screen.self, .openClinic(id: 3), on:)` sends any of these.
///
/// Compile errors: on anything but an enum; on a case with several values not all labelled,
/// or with a single bare value (`case pick(Int)`: label it); on two cases with the same base
/// name; on a case named like a system event (`back`, `dismiss`, `selectTab`).
@attached(member, names: named(events), arbitrary)
@attached(extension, conformances: ScreenOutput)
public macro ScreenEvents() = #externalMacro(module: "NavigationMacrosPlugin", type: "ScreenEventsMacro")
