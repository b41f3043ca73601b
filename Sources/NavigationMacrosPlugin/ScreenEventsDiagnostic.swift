import SwiftDiagnostics

/// What `@ScreenEvents` cannot expand, as compile errors.
enum ScreenEventsDiagnostic: DiagnosticMessage {
    case notAnEnum
    case unlabelledValues(event: String)
    case bareValue(event: String, type: String)
    case duplicate(event: String)
    case systemEvent(event: String)
    case conditionalCases

    var message: String {
        switch self {
        case .notAnEnum:
            "@ScreenEvents applies to an enum, a screen's Output"
        case .unlabelledValues(let event):
            "'\(event)' carries several values, not all labelled: label each one (the labels become the payload's "
                + "fields), or carry one Codable struct"
        case .bareValue(let event, let type):
            "'\(event)' carries a bare \(type), and a payload is an object of named fields: "
                + "label it (case \(event)(value: \(type))) or carry a Codable struct"
        case .duplicate(let event):
            "'\(event)' is declared twice: an event's wire name is its case name, so each case needs a name of its own"
        case .systemEvent(let event):
            "'\(event)' is a system event every client may send (back, dismiss, selectTab, and open for links): "
                + "name the case otherwise"
        case .conditionalCases:
            "@ScreenEvents cannot see cases inside #if: declare a screen's events unconditionally"
        }
    }

    var diagnosticID: MessageID {
        let id =
            switch self {
            case .notAnEnum: "notAnEnum"
            case .unlabelledValues: "unlabelledValues"
            case .bareValue: "bareValue"
            case .duplicate: "duplicate"
            case .systemEvent: "systemEvent"
            case .conditionalCases: "conditionalCases"
            }
        return MessageID(domain: "NavigationMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}
