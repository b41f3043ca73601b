#if canImport(SwiftUI)
import CoordinatorClient
import SwiftUI

/// Any screen, rendered from its props and the catalog: text for scalars, rows for lists (a row
/// opens the event the app's `itemActions` name), a form per event with payload fields.
struct ScreenView: View {
    let shell: ShellModel
    let screen: Screen
    @State private var fields: [String: String] = [:]

    private var declaration: ScreenDeclaration? { shell.catalog?.screen(named: screen.name) }
    /// The events the screen shows as buttons; the system ones are the platform's own gestures.
    private var events: [String] { screen.events.filter { !["back", "dismiss", "selectTab"].contains($0) } }

    var body: some View {
        Form {
            ForEach(screen.props.keys.sorted(), id: \.self) { key in
                if let items = screen.props[key]?.arrayValue {
                    Section(key) {
                        ForEach(items.indices, id: \.self) { index in row(items[index], in: key) }
                    }
                } else if let value = screen.props[key], !value.isNull {
                    LabeledContent(key, value: Payload.text(value))
                }
            }
            ForEach(events, id: \.self) { event in
                let eventFields = shell.catalog?.event(event, of: screen.name)?.fields ?? []
                Section {
                    ForEach(eventFields, id: \.name) { field in
                        SecureOrPlainField(field: field, text: $fields[field.name, default: ""])
                    }
                    Button(event) { shell.send(event, payload: Payload.make(eventFields, fields), from: screen.id) }
                        .disabled(!screen.events.contains(event))
                }
            }
        }
        .navigationTitle(declaration?.title ?? screen.name)
    }

    /// A list item: a button when the app says which event it opens (`itemActions`).
    @ViewBuilder private func row(_ item: JSONValue, in list: String) -> some View {
        let action = declaration?.presentation?["itemActions"]?.arrayValue?.first { $0["path"]?.stringValue == list }
        let title = action?["title"]?.stringValue.flatMap { item[$0] }.map(Payload.text) ?? Payload.text(item)
        if let action, let event = action["event"]?.stringValue, let field = action["field"]?.stringValue,
            let key = action["key"]?.stringValue, let value = item[key], events.contains(event)
        {
            Button(title) { shell.send(event, payload: [field: value], from: screen.id) }
        } else {
            Text(title)
        }
    }
}

/// A text field, masked for passwords.
struct SecureOrPlainField: View {
    let field: FieldDeclaration
    @Binding var text: String

    var body: some View {
        if field.type == "password" {
            SecureField(field.name, text: $text)
        } else {
            TextField(field.name, text: $text)
        }
    }
}

/// Payloads from form text, by the catalog's field types.
enum Payload {
    static func make(_ fields: [FieldDeclaration], _ values: [String: String]) -> [String: JSONValue]? {
        guard !fields.isEmpty else { return nil }
        var payload: [String: JSONValue] = [:]
        for field in fields {
            let text = values[field.name] ?? ""
            if text.isEmpty && field.optional { continue }
            switch field.type {
            case "integer": payload[field.name] = Int(text).map(JSONValue.int) ?? .string(text)
            case "number": payload[field.name] = Double(text).map(JSONValue.double) ?? .string(text)
            case "boolean": payload[field.name] = .bool(text == "true")
            default: payload[field.name] = .string(text)
            }
        }
        return payload
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .bool(let value): value ? "Yes" : "No"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): value
        case .array(let values): values.map(text).joined(separator: ", ")
        case .object(let members): members.keys.sorted().compactMap { members[$0].map(text) }.joined(separator: " · ")
        }
    }
}
#endif
