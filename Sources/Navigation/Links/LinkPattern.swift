/// One pattern of an app's links (`/posts/{id}`): a literal segment matches itself, a `{name}`
/// segment any one segment, which `make` reads typed from `LinkParameters` (a wrong value is a
/// `422`). When the pattern names one screen type (`shows`), a screen of that type on top carries
/// its canonical link in the State (`canonical`, from its props).
public struct LinkPattern<R: Route>: Sendable {
    /// The pattern as written.
    public let template: String
    /// One line for the catalog.
    public let summary: String
    /// The screen type the link shows, by name, when it names one.
    public let screen: String?
    let make: @Sendable (LinkParameters) throws -> R
    let canonical: (@Sendable (Screen) -> R?)?
    /// `canonical` from the typed props, when a screen is made with them (no decoding).
    let canonicalOfProps: (@Sendable (Any) -> R?)?

    /// A pattern whose route `make` builds from the path's parameters.
    public init(_ template: String, summary: String = "", _ make: @escaping @Sendable (LinkParameters) throws -> R) {
        self.template = template
        self.summary = summary
        self.screen = nil
        self.make = make
        self.canonical = nil
        self.canonicalOfProps = nil
    }

    /// A pattern that shows a `screen`: a screen of that type on top has the link of the route
    /// `canonical` makes of its props (nil: none).
    public init<S: ScreenType>(
        _ template: String, summary: String = "", shows screen: S.Type, canonical: @escaping @Sendable (S.Props) -> R?,
        _ make: @escaping @Sendable (LinkParameters) throws -> R
    ) {
        self.template = template
        self.summary = summary
        self.screen = S.name
        self.make = make
        self.canonical = { shown in
            guard shown.name == S.name, let props = try? JSONValue.decode(S.Props.self, from: .object(shown.props)) else {
                return nil
            }
            return canonical(props)
        }
        self.canonicalOfProps = { props in (props as? S.Props).flatMap(canonical) }
    }

    /// The template's segments (`["posts", "{id}"]`).
    var segments: [Substring] { template.split(separator: "/", omittingEmptySubsequences: true) }
}

/// The `{name}` segments of a link, as matched: read each typed; a value of the wrong form throws
/// the `422` a client gets (`LinkRejection.invalid`).
public struct LinkParameters: Sendable {
    /// The raw segment of each `{name}`.
    public let values: [String: String]
    /// Notes how each parameter is read (`Links.parameterKinds`), when set.
    let reads: ParameterReads?

    /// Parameters `values`.
    public init(_ values: [String: String]) {
        self.values = values
        self.reads = nil
    }

    init(_ values: [String: String], noting reads: ParameterReads) {
        self.values = values
        self.reads = reads
    }

    /// Parameter `name` as a decimal integer in `range` (ids: 1 and up).
    public func int(_ name: String, in range: ClosedRange<Int> = 1...Int.max) throws -> Int {
        reads?.note(name, .integer(range))
        let text = values[name] ?? ""
        // Digits only: no sign, no spaces, no leading zeros, so each id has one link.
        guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ (48...57).contains($0) }),
            text == "0" || !text.hasPrefix("0"), let value = Int(text), range.contains(value)
        else {
            throw LinkRejection.invalid([
                FieldError(field: name, message: "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            ])
        }
        return value
    }

    /// Parameter `name` as it appears in the link.
    public func string(_ name: String) -> String {
        reads?.note(name, .string)
        return values[name] ?? ""
    }
}

/// How a link's parameters are read: an integer in a range, or a string.
package enum LinkParameterKind: Sendable, Hashable {
    case integer(ClosedRange<Int>)
    case string
}

/// The kinds a pattern's `make` read its parameters as, noted by one run of it.
final class ParameterReads: @unchecked Sendable {  // one `make` call fills it, on one thread, before it is read
    private(set) var kinds: [String: LinkParameterKind] = [:]

    func note(_ name: String, _ kind: LinkParameterKind) {
        if kinds[name] == nil { kinds[name] = kind }
    }
}
