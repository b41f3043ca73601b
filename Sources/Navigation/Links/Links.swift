/// An app's link patterns, type-erased: matches a link to its route and gives a screen its
/// canonical link. Empty for an app that declares no links.
public struct Links: Sendable {
    struct Entry: Sendable {
        let template: String
        let summary: String
        let screen: String?
        let segments: [Substring]
        let make: @Sendable (LinkParameters) throws -> any Route
        let canonical: (@Sendable (Screen) -> (any Route)?)?
        let canonicalOfProps: (@Sendable (Any) -> (any Route)?)?
    }

    /// The longest link accepted, in bytes.
    public static let maxBytes = 512
    let entries: [Entry]

    /// No links.
    public init() { entries = [] }

    /// The patterns of route type `R`.
    public init<R: Route>(_ route: R.Type) {
        entries = R.patterns.map { pattern -> Entry in
            let make: @Sendable (LinkParameters) throws -> any Route = { parameters in try pattern.make(parameters) }
            var canonical: (@Sendable (Screen) -> (any Route)?)?
            if let screenLink = pattern.canonical {
                canonical = { screen in screenLink(screen) }
            }
            var canonicalOfProps: (@Sendable (Any) -> (any Route)?)?
            if let propsLink = pattern.canonicalOfProps {
                canonicalOfProps = { props in propsLink(props) }
            }
            return Entry(
                template: pattern.template, summary: pattern.summary, screen: pattern.screen, segments: pattern.segments,
                make: make, canonical: canonical, canonicalOfProps: canonicalOfProps)
        }
    }

    /// True when the app declares no links.
    public var isEmpty: Bool { entries.isEmpty }

    /// The patterns as written.
    public var templates: [String] { entries.map(\.template) }

    /// How the pattern `template`'s `make` reads each `{name}` parameter, found by running it once
    /// on sample values (`1` for each): for the OpenAPI document's link paths, typed.
    package func parameterKinds(of template: String) -> [String: LinkParameterKind] {
        guard let entry = entries.first(where: { $0.template == template }) else { return [:] }
        let names = entry.segments.filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map { String($0.dropFirst().dropLast()) }
        let reads = ParameterReads()
        _ = try? entry.make(LinkParameters(Dictionary(uniqueKeysWithValues: names.map { ($0, "1") }), noting: reads))
        return reads.kinds
    }

    /// The link `text` names: `LinkRejection.invalid` when it is not a plain path, `.unknown`
    /// when no pattern matches, the route's own rejection when a parameter is wrong.
    public func link(for text: String) throws(LinkRejection) -> Link {
        guard text.hasPrefix("/"), text.utf8.count <= Self.maxBytes,
            text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") })
        else {
            throw .invalid([
                FieldError(
                    field: "link",
                    message: "must be a path starting with / of at most \(Self.maxBytes) visible ASCII characters, "
                        + "without query or fragment")
            ])
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: true)
        for entry in entries {
            guard let parameters = Self.match(entry.segments, parts) else { continue }
            do {
                return Link(erased: try entry.make(LinkParameters(parameters)))
            } catch let rejection as LinkRejection {
                throw rejection
            } catch {
                throw .invalid([FieldError(field: "link", message: "\(error)")])
            }
        }
        throw .unknown(link: text)
    }

    /// The canonical link of `screen`, when a pattern shows its type and its props make one.
    public func canonicalLink(of screen: Screen) -> String? {
        switch screen.link {
        case .known(let link): return link
        case .absent: return nil
        case .unknown: break
        }
        for entry in entries where entry.screen == screen.name {
            if let route = entry.canonical?(screen) { return route.link }
        }
        return nil
    }

    /// The canonical link of a screen named `name` made with the typed `props`: found without
    /// serializing and decoding them, as `canonicalLink(of:)` must.
    func canonicalLink(name: String, props: Any) -> CanonicalLink {
        for entry in entries where entry.screen == name {
            if let route = entry.canonicalOfProps?(props) { return .known(route.link) }
        }
        return .absent
    }

    /// The catalog's list: each pattern, its parameters, the screen it shows and its summary.
    var catalog: JSONValue {
        .array(
            entries.map { entry in
                [
                    "pattern": .string(entry.template), "summary": .string(entry.summary),
                    "parameters": .array(
                        entry.segments.filter { $0.hasPrefix("{") }.map { .string(String($0.dropFirst().dropLast())) }),
                    "screen": .optional(entry.screen),
                ]
            })
    }

    /// Mistakes in the patterns, one sentence each.
    var problems: [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        for entry in entries {
            let shape = entry.segments.map { $0.hasPrefix("{") ? "{}" : String($0) }.joined(separator: "/")
            if !entry.template.hasPrefix("/") || entry.segments.contains(where: \.isEmpty) {
                problems.append("link pattern \"\(entry.template)\" must be a path starting with /")
            } else if !seen.insert(shape).inserted {
                problems.append("link pattern \"\(entry.template)\" matches the same links as an earlier one")
            }
        }
        return problems
    }

    private static func match(_ segments: [Substring], _ parts: [Substring]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            if segment.hasPrefix("{") && segment.hasSuffix("}") {
                parameters[String(segment.dropFirst().dropLast())] = String(part)
            } else if segment != part {
                return nil
            }
        }
        return parameters
    }
}

extension Link {
    init(erased route: any Route) { self.route = route }
}
