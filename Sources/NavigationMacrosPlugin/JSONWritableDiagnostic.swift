import SwiftDiagnostics

/// What `@JSONWritable` cannot expand, as compile errors.
enum JSONWritableDiagnostic: DiagnosticMessage {
    case notAStruct
    case customEncoding(member: String)
    case untypedProperty(name: String)
    case lazyProperty(name: String)
    case conditionalMembers

    var message: String {
        switch self {
        case .notAStruct:
            "@JSONWritable applies to a struct (screen props, or a value inside them)"
        case .customEncoding(let member):
            "@JSONWritable writes each stored property under its own name, as the synthesized Encodable "
                + "conformance does; this struct declares \(member): remove one of the two"
        case .untypedProperty(let name):
            "'\(name)' has no type annotation: @JSONWritable needs it to tell an optional field (written as null "
                + "when nil) from another; write its type"
        case .lazyProperty(let name):
            "'\(name)' is lazy: screen props are values, and @JSONWritable writes stored properties only"
        case .conditionalMembers:
            "@JSONWritable cannot see properties inside #if: declare the fields of props unconditionally"
        }
    }

    var diagnosticID: MessageID {
        let id =
            switch self {
            case .notAStruct: "notAStruct"
            case .customEncoding: "customEncoding"
            case .untypedProperty: "untypedProperty"
            case .lazyProperty: "lazyProperty"
            case .conditionalMembers: "conditionalMembers"
            }
        return MessageID(domain: "NavigationMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}
