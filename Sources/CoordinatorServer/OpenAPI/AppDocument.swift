import Navigation

/// The OpenAPI document of the app a server runs: the generic contract (`api/openapi.yaml`, built
/// into the binary) with the app's name as its title, its `Screen` and `Event` schemas replaced
/// by the app's unions, and the app's screens, props, payloads and event requests added as
/// schemas of their own (`AppSchemas`). Generated, never edited by hand: `GET /openapi.yaml` and
/// `coordinatord openapi` give it.
enum AppDocument {
    /// The document for `app`, as YAML.
    static func yaml(for app: ServedApp) throws -> String {
        try yaml(generic: String(decoding: ShippedFiles.file("api/openapi.yaml"), as: UTF8.self), app: app)
    }

    /// The generic contract `generic` made `app`'s.
    static func yaml(generic: String, app: ServedApp) throws -> String {
        var lines = generic.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let schemasStart = lines.firstIndex(of: "  schemas:"),
            let titleLine = lines.firstIndex(where: { $0.hasPrefix("  title: ") })
        else { throw StartupError(description: "api/openapi.yaml has no info.title or components.schemas") }
        lines[titleLine] = "  title: " + JSONValue.string(app.name).serializedString
        let schemasEnd =
            lines[(schemasStart + 1)...].firstIndex { line in
                !line.isEmpty && line.prefix(while: { $0 == " " }).count <= 2
            } ?? lines.endIndex
        // The generic schemas, each its name and its lines (`    Name:` and what is indented below it).
        var generic: [(name: String, lines: [String])] = []
        for line in lines[(schemasStart + 1)..<schemasEnd] {
            if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                generic.append((String(line.dropFirst(4).dropLast()), [line]))
            } else if !generic.isEmpty {
                generic[generic.count - 1].lines.append(line)
            }
        }
        let schemas = AppSchemas(app.navigation, reserved: Set(generic.map(\.name)))
        let replaced: [String: YAMLNode] = ["Screen": schemas.screenUnion, "Event": schemas.eventRequest]
        var body: [String] = []
        for (name, schemaLines) in generic {
            if let replacement = replaced[name] {
                body += YAMLNode.map([(name, replacement)]).lines(indent: 4)
            } else {
                body += schemaLines
            }
        }
        for (name, schema) in schemas.schemas { body += YAMLNode.map([(name, schema)]).lines(indent: 4) }
        lines.replaceSubrange((schemasStart + 1)..<schemasEnd, with: body)
        return lines.joined(separator: "\n")
    }
}
