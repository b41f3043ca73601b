import NavigationMacrosPlugin
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@ScreenEvents` writes, and the errors it gives for what it cannot expand.
@Suite struct ScreenEventsMacroTests {
    private let macros = ["ScreenEvents": MacroSpec(type: ScreenEventsMacro.self, conformances: ["ScreenOutput"])]

    private func expect(
        _ source: String, expandsTo expanded: String, diagnostics: [DiagnosticSpec] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectExpansion(source, expandsTo: expanded, diagnostics: diagnostics, macros: macros, sourceLocation: sourceLocation)
    }

    @Test func eachCaseBecomesAnEventNamedAfterIt() {
        expect(
            """
            @ScreenEvents
            public enum Output {
                case submit(Credentials)
                case signUp
                case openClinic(id: Int)
                case move(from: Int, to: Int?)
            }
            """,
            expandsTo: """
                public enum Output {
                    case submit(Credentials)
                    case signUp
                    case openClinic(id: Int)
                    case move(from: Int, to: Int?)

                    /// The payload of `openClinic`: its labelled values as fields.
                    public struct OpenClinicPayload: Codable, Sendable {
                        public var id: Int
                    }

                    /// The payload of `move`: its labelled values as fields.
                    public struct MovePayload: Codable, Sendable {
                        public var from: Int
                        public var to: Int?
                    }

                    /// Every event of this output, named after its case, in declaration order.
                    public static let events: [Navigation.OutputEvent<Output>] = [
                        Navigation.OutputEvent<Output>.event("submit", { (payload: Credentials) -> Output in
                                Output.submit(payload)
                            }, payload: { (output: Output) -> Credentials? in
                                if case .submit(let payload) = output {
                                    payload
                                } else {
                                    nil
                                }
                            }),
                        Navigation.OutputEvent<Output>.event("signUp", Output.signUp, is: { (output: Output) -> Bool in
                                if case .signUp = output {
                                    true
                                } else {
                                    false
                                }
                            }),
                        Navigation.OutputEvent<Output>.event("openClinic", { (payload: OpenClinicPayload) -> Output in
                                Output.openClinic(id: payload.id)
                            }, payload: { (output: Output) -> OpenClinicPayload? in
                                if case .openClinic(let value0) = output {
                                    OpenClinicPayload(id: value0)
                                } else {
                                    nil
                                }
                            }),
                        Navigation.OutputEvent<Output>.event("move", { (payload: MovePayload) -> Output in
                                Output.move(from: payload.from, to: payload.to)
                            }, payload: { (output: Output) -> MovePayload? in
                                if case .move(let value0, let value1) = output {
                                    MovePayload(from: value0, to: value1)
                                } else {
                                    nil
                                }
                            }),
                    ]
                }

                extension Output: Navigation.ScreenOutput {
                }
                """)
    }

    @Test func keywordsAsNamesAreQuotedInCodeButNotOnTheWire() {
        expect(
            """
            @ScreenEvents
            enum Output {
                case `default`(in: Int, value: String)
                case `switch`(_ value: Filter)
            }
            """,
            expandsTo: """
                enum Output {
                    case `default`(in: Int, value: String)
                    case `switch`(_ value: Filter)

                    /// The payload of `default`: its labelled values as fields.
                    struct DefaultPayload: Codable, Sendable {
                        var `in`: Int
                        var value: String
                    }

                    /// Every event of this output, named after its case, in declaration order.
                    static let events: [Navigation.OutputEvent<Output>] = [
                        Navigation.OutputEvent<Output>.event("default", { (payload: DefaultPayload) -> Output in
                                Output.`default`(in: payload.`in`, value: payload.value)
                            }, payload: { (output: Output) -> DefaultPayload? in
                                if case .`default`(let value0, let value1) = output {
                                    DefaultPayload(in: value0, value: value1)
                                } else {
                                    nil
                                }
                            }),
                        Navigation.OutputEvent<Output>.event("switch", { (payload: Filter) -> Output in
                                Output.`switch`(payload)
                            }, payload: { (output: Output) -> Filter? in
                                if case .`switch`(let payload) = output {
                                    payload
                                } else {
                                    nil
                                }
                            }),
                    ]
                }

                extension Output: Navigation.ScreenOutput {
                }
                """)
    }

    @Test func aNonEnumIsAnError() {
        expect(
            """
            @ScreenEvents
            struct Output {
            }
            """,
            expandsTo: """
                struct Output {
                }
                """,
            diagnostics: [DiagnosticSpec(message: "@ScreenEvents applies to an enum, a screen's Output", line: 1, column: 1)])
    }

    @Test func valuesWithoutLabelsBareValuesDuplicatesAndSystemNamesAreErrors() {
        expect(
            """
            @ScreenEvents
            enum Output {
                case move(Int, Int)
                case pick(Int)
                case view(id: Int)
                case view(name: String)
                case back, open
                #if DEBUG
                case debug
                #endif
            }
            """,
            expandsTo: """
                enum Output {
                    case move(Int, Int)
                    case pick(Int)
                    case view(id: Int)
                    case view(name: String)
                    case back, open
                    #if DEBUG
                    case debug
                    #endif
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'move' carries several values, not all labelled: label each one (the labels become "
                        + "the payload's fields), or carry one Codable struct", line: 3, column: 10),
                DiagnosticSpec(
                    message: "'pick' carries a bare Int, and a payload is an object of named fields: "
                        + "label it (case pick(value: Int)) or carry a Codable struct", line: 4, column: 15),
                DiagnosticSpec(
                    message: "'view' is declared twice: an event's wire name is its case name, so each case needs a name of its own",
                    line: 6, column: 10),
                DiagnosticSpec(
                    message: "'back' is a system event every client may send (back, dismiss, selectTab, and open for links): "
                        + "name the case otherwise", line: 7, column: 10),
                DiagnosticSpec(
                    message: "'open' is a system event every client may send (back, dismiss, selectTab, and open for links): "
                        + "name the case otherwise", line: 7, column: 16),
                DiagnosticSpec(
                    message: "@ScreenEvents cannot see cases inside #if: declare a screen's events unconditionally", line: 8,
                    column: 5),
            ])
    }
}
