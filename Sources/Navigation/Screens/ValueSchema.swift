/// What a value of a declared type is on the wire, as deep as its decoding tells: each member's
/// type, whether it may be missing, object members and list items. A per-app OpenAPI document
/// is written from it (each screen's props and each event's payload as a schema of its own).
package indirect enum ValueSchema: Sendable, Hashable {
    /// A string, number, boolean or instant, typed as the catalog types it.
    case field(FieldType, TextRule)
    /// An object of the Swift type `type` (`TimelineScreen.Props`), its members in decoding order;
    /// not `complete` when part of it could not be followed (then any member may be there).
    case object(type: String, members: [ValueMember], complete: Bool)
    /// A list of such items.
    case array(ValueSchema)
    /// Anything: a dictionary, free-form JSON, or a type that could not be followed.
    case open

    /// The object of `fields`, as a screen declared by hand has (object and list members unknown).
    package static func object(_ name: String, _ fields: [FieldDeclaration]) -> ValueSchema {
        .object(
            type: name,
            members: fields.map { field in
                let schema: ValueSchema =
                    switch field.type {
                    case .object: .open
                    case .array: .array(.open)
                    default: .field(field.type, field.text)
                    }
                return ValueMember(name: field.name, schema: schema, optional: field.optional)
            }, complete: true)
    }
}

/// A member of an object: its wire name, what it holds, and whether it may be absent or null.
package struct ValueMember: Sendable, Hashable {
    package let name: String
    package let schema: ValueSchema
    package let optional: Bool
}

extension ValueSchema {
    /// The name a type is known by in documents: its Swift name without the module
    /// (`SampleApp.TimelineScreen.Props` → `TimelineScreen.Props`).
    static func typeName(_ type: Any.Type) -> String {
        let full = String(reflecting: type)
        guard let dot = full.firstIndex(of: ".") else { return full }
        return String(full[full.index(after: dot)...])
    }
}
