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
        if let versionLine = lines.firstIndex(where: { $0.hasPrefix("  version: ") }) {
            let version = app.version ?? "0.0.0-unversioned"
            lines[versionLine] = "  version: " + JSONValue.string(version).serializedString
        }
        // The generic document's paragraph on itself says the opposite of what this one is.
        if let generic = lines.firstIndex(where: { $0.hasPrefix("    This is the generic contract:") }) {
            let end = lines[generic...].firstIndex(where: \.isEmpty) ?? generic + 1
            lines.replaceSubrange(
                generic..<end,
                with: [
                    "    This is the document of the app \(app.name) (served at `GET /openapi.yaml`, printed by",
                    "    `openapi`): each screen is a schema of its own behind `Screen`'s discriminator, with its",
                    "    props and its events' payloads typed. Built on coordinatord \(CoordinatorServer.version).",
                ])
        }
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
            // Each of the app's screens has its own content schema instead.
            if name == "ScreenContent" { continue }
            if let replacement = replaced[name] {
                body += YAMLNode.map([(name, replacement)]).lines(indent: 4)
            } else {
                body += schemaLines
            }
        }
        for (name, schema) in schemas.schemas { body += YAMLNode.map([(name, schema)]).lines(indent: 4) }
        lines.replaceSubrange((schemasStart + 1)..<schemasEnd, with: body)
        if let paths = lines.firstIndex(of: "paths:") {
            let links = app.navigation.links
            lines.insert(
                contentsOf: linkPages(links.templates) { links.parameterKinds(of: $0) }, at: paths + 1)
        }
        return lines.joined(separator: "\n")
    }

    /// The app's link patterns as paths: each is the web client's page, which opens the link.
    /// A parameter's schema is as the pattern reads it (`kinds`): an integer in its range, or a string.
    static func linkPages(
        _ templates: [String], kinds: (String) -> [String: LinkParameterKind] = { _ in [:] }
    ) -> [String] {
        templates.flatMap { template -> [String] in
            let names = template.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }
                .map { String($0.dropFirst().dropLast()) }
            let operation = "link" + template.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            let read = kinds(template)
            let parameters = names.isEmpty ? [] : ["      parameters:"] + names.map { name in
                let schema: String
                switch read[name] {
                case .integer(let range)?:
                    let maximum = range.upperBound == Int.max ? "" : ", maximum: \(range.upperBound)"
                    schema = "{ type: integer, minimum: \(range.lowerBound)\(maximum) }"
                case .string?, nil: schema = "{ type: string }"
                }
                return "        - { name: \(name), in: path, required: true, schema: \(schema) }"
            }
            func method(_ verb: String, _ suffix: String, _ summary: String) -> [String] {
                ["    \(verb):", "      tags: [web]", "      operationId: \(operation)\(suffix)",
                 "      summary: \(JSONValue.string(summary).serializedString)"] + parameters + [
                    "      responses:", "        '200':", "          description: The web client's page (HTML).",
                    "          headers:", "            X-Request-Id: { $ref: '#/components/headers/RequestId' }",
                ] + (verb == "get" ? ["          content:", "            text/html:", "              schema: { type: string }"] : []) + [
                    "        '405': { $ref: '#/components/responses/MethodNotAllowed' }",
                    "        default: { $ref: '#/components/responses/Problem' }",
                ]
            }
            return ["  \(template):"]
                + method("get", "", "A link of this app (the catalog's `links`): the web client's page, which opens it.")
                + method("head", "Head", "As GET, without a body.")
        }
    }
}
