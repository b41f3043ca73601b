import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ScreenEvents`: a screen's `Output` enum declares each event once, as a case. The macro adds
/// `events` (wire name = case name, in declaration order), a `Codable` payload struct for each case
/// with labelled values, and the `ScreenOutput` conformance.
public enum ScreenEventsMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let enumDecl = declaration.as(EnumDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: ScreenEventsDiagnostic.notAnEnum))
            return []
        }
        let (cases, problems) = read(enumDecl)
        guard problems.isEmpty else {
            for problem in problems { context.diagnose(problem) }
            return []
        }
        let access = accessModifier(of: enumDecl)
        let output = enumDecl.name.text
        var members: [DeclSyntax] = []
        for event in cases {
            guard case .fields(let fields) = event.carried else { continue }
            let properties = fields.map { "\(access)var \($0.code): \($0.type.trimmedDescription)" }
            members.append(
                """
                /// The payload of `\(raw: event.name)`: its labelled values as fields.
                \(raw: access)struct \(raw: event.payloadStruct): Codable, Sendable {
                \(raw: properties.joined(separator: "\n"))
                }
                """)
        }
        let events = cases.map { event(for: $0, in: output) + "," }
        members.append(
            """
            /// Every event of this output, named after its case, in declaration order.
            \(raw: access)static let events: [Navigation.OutputEvent<\(raw: output)>] = [
            \(raw: events.joined(separator: "\n"))
            ]
            """)
        return members
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        // The member expansion reports the problems; without its `events` no conformance either.
        guard let enumDecl = declaration.as(EnumDeclSyntax.self), read(enumDecl).problems.isEmpty,
            !protocols.isEmpty
        else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): Navigation.ScreenOutput {}")]
    }

    /// The `OutputEvent` of one case.
    private static func event(for event: EventCase, in output: String) -> String {
        let name = "\"\(event.name)\""
        let call = "Navigation.OutputEvent<\(output)>.event"
        switch event.carried {
        case .nothing:
            return "\(call)(\(name), \(output).\(event.code), is: { (output: \(output)) -> Bool in "
                + "if case .\(event.code) = output { true } else { false } })"
        case .value(let type):
            let type = type.trimmedDescription
            return "\(call)(\(name), { (payload: \(type)) -> \(output) in \(output).\(event.code)(payload) }, "
                + "payload: { (output: \(output)) -> \(type)? in "
                + "if case .\(event.code)(let payload) = output { payload } else { nil } })"
        case .fields(let fields):
            let arguments = fields.map { "\($0.label): payload.\($0.code)" }.joined(separator: ", ")
            let bindings = fields.indices.map { "let value\($0)" }.joined(separator: ", ")
            let values = fields.enumerated().map { "\($1.label): value\($0)" }.joined(separator: ", ")
            return "\(call)(\(name), { (payload: \(event.payloadStruct)) -> \(output) in "
                + "\(output).\(event.code)(\(arguments)) }, "
                + "payload: { (output: \(output)) -> \(event.payloadStruct)? in "
                + "if case .\(event.code)(\(bindings)) = output { \(event.payloadStruct)(\(values)) } else { nil } })"
        }
    }

    /// The generated members are as visible as the enum (a public output's `events` must be public).
    private static func accessModifier(of decl: EnumDeclSyntax) -> String {
        for modifier in decl.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}

extension ScreenEventsMacro {
    /// Names whose values cannot be a payload on their own (a payload is an object of fields).
    private static let bareTypes: Set<String> = [
        "String", "Substring", "Character", "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8",
        "UInt16", "UInt32", "UInt64", "Double", "Float", "Decimal", "Date", "UUID", "URL", "Data", "Identifier",
        "Password",
    ]

    /// The enum's cases, in declaration order, or what keeps them from being events.
    static func read(_ decl: EnumDeclSyntax) -> (cases: [EventCase], problems: [Diagnostic]) {
        var cases: [EventCase] = []
        var problems: [Diagnostic] = []
        var seen: Set<String> = []
        for member in decl.memberBlock.members {
            if let conditional = member.decl.as(IfConfigDeclSyntax.self) {
                problems.append(Diagnostic(node: conditional, message: ScreenEventsDiagnostic.conditionalCases))
                continue
            }
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                let name = element.name.unquoted
                if ["back", "dismiss", "selectTab", "open"].contains(name) {
                    problems.append(Diagnostic(node: element.name, message: ScreenEventsDiagnostic.systemEvent(event: name)))
                } else if !seen.insert(name).inserted {
                    problems.append(Diagnostic(node: element.name, message: ScreenEventsDiagnostic.duplicate(event: name)))
                }
                if let carried = carried(by: element, name: name, problems: &problems) {
                    cases.append(EventCase(name: name, code: element.name.text, carried: carried))
                }
            }
        }
        return (cases, problems)
    }

    /// What a case carries, or nil (with the reason in `problems`) when it cannot be a payload.
    private static func carried(
        by element: EnumCaseElementSyntax, name: String, problems: inout [Diagnostic]
    ) -> EventCase.Carried? {
        guard let parameters = element.parameterClause?.parameters, !parameters.isEmpty else { return .nothing }
        let labels = parameters.map { $0.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0 } }
        if parameters.count == 1, labels[0] == nil {
            let type = parameters.first!.type
            guard !isBare(type) else {
                let problem = ScreenEventsDiagnostic.bareValue(event: name, type: type.trimmedDescription)
                problems.append(Diagnostic(node: type, message: problem))
                return nil
            }
            return .value(type)
        }
        guard labels.allSatisfy({ $0 != nil }) else {
            problems.append(Diagnostic(node: element, message: ScreenEventsDiagnostic.unlabelledValues(event: name)))
            return nil
        }
        return .fields(
            zip(parameters, labels).map { parameter, label in
                EventCase.Field(name: label!.unquoted, code: label!.asIdentifier, type: parameter.type)
            })
    }

    /// A single unlabelled value that is no object: a primitive, an optional, an array, a dictionary.
    private static func isBare(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ArrayTypeSyntax.self) || type.is(DictionaryTypeSyntax.self) {
            return true
        }
        if let named = type.as(IdentifierTypeSyntax.self) {
            return bareTypes.contains(named.name.text) || ["Optional", "Array", "Dictionary", "Set"].contains(named.name.text)
        }
        return false
    }
}
