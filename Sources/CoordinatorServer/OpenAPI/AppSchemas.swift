import Navigation

/// The schemas an app's declarations give its OpenAPI document: each screen (`TimelineScreen`,
/// its `name` a constant, its props a schema of their own), each object its props and payloads
/// hold (named after its Swift type), each event request (`OpenPostEvent`, its payload typed by
/// the screens that declare the event), and the `Screen` and `Event` unions with a discriminator.
struct AppSchemas {
    /// Every schema, in the order written.
    private(set) var schemas: [(name: String, schema: YAMLNode)] = []
    /// Names in use: the generic contract's and those given so far.
    private var taken: Set<String>
    /// The name given to each object schema (by its preferred name and what it is).
    private var named: [ObjectKey: String] = [:]

    private struct ObjectKey: Hashable {
        let preferred: String
        let schema: ValueSchema
        let nullable: Bool
    }

    /// The schemas of `app`; none takes a name of `reserved` (the generic contract's schemas).
    init(_ app: NavigationApp, reserved: Set<String>) {
        taken = reserved
        let screens = app.screens.values.sorted { $0.name < $1.name }
        // Screen schemas first, so they get their names unsuffixed.
        var screenNames: [String] = []
        for screen in screens { screenNames.append(allocate(Self.pascal(screen.name) + "Screen")) }
        var union: [(String, String)] = []
        var requests = EventRequests()
        for (screen, name) in zip(screens, screenNames) {
            // `ScreenBase` (id and name) and the screen's own members: a client reads any screen's
            // id through the base, and `name` tells it which content the rest is.
            let content = allocate(name + "Content")
            schemas.append((name, .map([
                ("description", .string(screen.summary.isEmpty ? "The screen \(screen.name)." : screen.summary)),
                ("allOf", .list([.ref("ScreenBase"), .ref(content)])),
            ])))
            append(content) { schemas in
                let props = schemas.schema(
                    screen.schemas.props, nullable: false, preferred: Self.pascal(screen.name) + "Props", byType: false)
                let events = screen.events.map(\.name) + SystemEvent.all.map(\.name)
                let eventList: YAMLNode = .map([
                    ("type", .string("array")),
                    ("description", .string("The events this screen accepts now (only the top screen has any).")),
                    ("items", .map([("type", .string("string")), ("enum", .list(events.map(YAMLNode.string)))])),
                ])
                return .map([
                    ("type", .string("object")), ("description", .string("What the screen \(screen.name) holds besides its id.")),
                    ("required", .list(["name", "props", "events"].map(YAMLNode.string))),
                    ("properties", .map([
                        ("name", .map([("type", .string("string")), ("enum", .list([.string(screen.name)]))])),
                        ("props", props), ("events", eventList),
                    ])),
                ])
            }
            union.append((screen.name, name))
            for event in screen.events {
                requests.declare(event.name, screen.schemas.payloads[event.name] ?? .object("", event.fields), on: screen.name)
            }
        }
        // `open` (a link) is a system event only of apps that declare links.
        let systemEvents = app.links.isEmpty ? SystemEvent.all : SystemEvent.all + [SystemEvent.open]
        for event in systemEvents { requests.declare(event.name, .object("", event.fields), on: nil) }

        var eventUnion: [(String, String)] = []
        for (event, variants) in requests.events {
            let name = allocate(Self.pascal(event) + "Event")
            if variants.count == 1 {
                append(name) { $0.request(event, variants[0]) }
            } else {
                // One request schema per payload, named after the (first) screen that sends it, so a
                // client builds the one its top screen takes: `submit` on `login` is a `LoginSubmitEvent`.
                append(name) { schemas in
                    let members = variants.map { variant in
                        let member = schemas.allocate(Self.pascal(variant.screens.first ?? event) + Self.pascal(event) + "Event")
                        schemas.append(member) { $0.request(event, variant) }
                        return YAMLNode.ref(member)
                    }
                    return .map([
                        ("description", .string(
                            "The event \(event), whose payload depends on the screen: one schema per screen (each says which).")),
                        ("oneOf", .list(members)),
                    ])
                }
            }
            eventUnion.append((event, name))
        }
        screenUnion = Self.union(union, on: "name", "A screen of the app; `name` tells which.")
        eventRequest = Self.union(eventUnion, on: "event", "An event of the top screen; `event` tells which.")
    }

    /// Appends the schema `name`, made by `make`, before those `make` adds (the schemas it holds).
    private mutating func append(_ name: String, _ make: (inout AppSchemas) -> YAMLNode) {
        let index = schemas.count
        schemas.append((name, .map([])))
        schemas[index] = (name, make(&self))
    }

    /// The request schema of `event` as `variant`'s screens send it.
    private mutating func request(_ event: String, _ variant: EventRequests.Variant) -> YAMLNode {
        let payload = schema(variant.payload, nullable: false, preferred: Self.pascal(event) + "Payload", byType: true)
        let required = ["screen", "event"] + (variant.payload.hasRequiredMember ? ["payload"] : [])
        let properties: [(String, YAMLNode)] = [
            ("screen", .map([("type", .string("string")), ("description", .string("The id of the top screen."))])),
            ("event", .map([("type", .string("string")), ("enum", .list([.string(event)]))])),
            ("payload", payload),
        ]
        let whose = variant.screens.isEmpty
            ? "The system event \(event) (any top screen)."
            : "The event \(event) of the top screen " + variant.screens.joined(separator: ", ") + "."
        return .map([
            ("type", .string("object")), ("description", .string(whose)),
            ("required", .list(required.map(YAMLNode.string))), ("properties", .map(properties)),
        ])
    }

    /// `Screen`: one of the app's screens, by `name`.
    private(set) var screenUnion: YAMLNode = .map([])
    /// `Event`: one of the app's event requests, by `event`.
    private(set) var eventRequest: YAMLNode = .map([])

    /// A `oneOf` of `members` (each a value of `property` and the schema it names).
    private static func union(_ members: [(String, String)], on property: String, _ description: String) -> YAMLNode {
        let mapping: [(String, YAMLNode)] = members.map { ($0.0, .string("#/components/schemas/" + $0.1)) }
        let discriminator: YAMLNode = .map([("propertyName", .string(property)), ("mapping", .map(mapping))])
        return .map([
            ("description", .string(description)), ("oneOf", .list(members.map { .ref($0.1) })),
            ("discriminator", discriminator),
        ])
    }

    /// The schema of a field of `type`: the one place a field kind becomes JSON Schema.
    static func field(_ type: FieldType, _ text: TextRule, nullable: Bool) -> YAMLNode {
        func typed(_ name: String, _ more: [(String, YAMLNode)] = []) -> YAMLNode {
            .map([("type", nullable ? .list([.string(name), .string("null")]) : .string(name))] + more)
        }
        switch type {
        case .string: return text == .identifier ? typed("string", [("description", .string("No control, invisible or bidi-control characters."))]) : typed("string")
        case .password: return typed("string", [("format", .string("password"))])
        case .integer: return typed("integer")
        case .number: return typed("number")
        case .dateTime: return typed("string", [("format", .string("date-time"))])
        case .url: return typed("string", [("format", .string("uri"))])
        case .boolean: return typed("boolean")
        case .object: return typed("object")
        case .array: return typed("array")
        }
    }

    /// The schema of `value`, inline for fields and lists, a reference to a named schema for objects.
    private mutating func schema(_ value: ValueSchema, nullable: Bool, preferred: String, byType: Bool) -> YAMLNode {
        switch value {
        case .field(let type, let text):
            return Self.field(type, text, nullable: nullable)
        case .open:
            return .map([])
        case .array(let item):
            return .map([
                ("type", nullable ? .list([.string("array"), .string("null")]) : .string("array")),
                ("items", schema(item, nullable: false, preferred: preferred + "Item", byType: true)),
            ])
        case .object(let type, let members, let complete):
            let base =
                byType && !type.isEmpty ? Self.pascal(type) : members.isEmpty && complete && byType ? "NoPayload" : preferred
            let key = ObjectKey(preferred: base, schema: value, nullable: nullable)
            if let name = named[key] { return .ref(name) }
            let name = allocate(base + (nullable ? "OrNull" : ""))
            named[key] = name
            append(name) { schemas in
                var properties: [(String, YAMLNode)] = []
                for member in members {
                    properties.append(
                        (member.name,
                         schemas.schema(member.schema, nullable: member.optional, preferred: base + Self.pascal(member.name), byType: true)))
                }
                var body: [(String, YAMLNode)] = [
                    ("type", nullable ? .list([.string("object"), .string("null")]) : .string("object"))
                ]
                let required = members.filter { !$0.optional }.map(\.name)
                if !required.isEmpty { body.append(("required", .list(required.map(YAMLNode.string)))) }
                body.append(("properties", .map(properties)))
                // A payload with undeclared members is refused; an object that could not be followed may have any.
                body.append(("additionalProperties", .scalar(.bool(!complete))))
                return .map(body)
            }
            return .ref(name)
        }
    }

    /// `preferred`, or with a number when it is taken.
    private mutating func allocate(_ preferred: String) -> String {
        var name = preferred
        var number = 2
        while taken.contains(name) {
            name = preferred + String(number)
            number += 1
        }
        taken.insert(name)
        return name
    }

    /// `signUp.email` → `SignUpEmail`; `TimelineScreen.Props` → `TimelineScreenProps`.
    static func pascal(_ name: String) -> String {
        let parts = name.split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
        let joined = parts.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = joined.first else { return "Value" }
        return first.isLetter ? joined : "V" + joined
    }
}

/// The event requests an app's screens declare: per event, in the order first declared, each
/// distinct payload with the screens that send it.
private struct EventRequests {
    struct Variant {
        let payload: ValueSchema
        /// The screens that send it; none for a system event.
        var screens: [String]
    }
    private(set) var events: [(name: String, variants: [Variant])] = []

    mutating func declare(_ event: String, _ payload: ValueSchema, on screen: String?) {
        guard let index = events.firstIndex(where: { $0.name == event }) else {
            events.append((event, [Variant(payload: payload, screens: screen.map { [$0] } ?? [])]))
            return
        }
        if let variant = events[index].variants.firstIndex(where: { $0.payload == payload }) {
            if let screen { events[index].variants[variant].screens.append(screen) }
        } else {
            events[index].variants.append(Variant(payload: payload, screens: screen.map { [$0] } ?? []))
        }
    }
}

extension ValueSchema {
    /// True for an object with a member that must be there.
    fileprivate var hasRequiredMember: Bool {
        if case .object(_, let members, _) = self { return members.contains { !$0.optional } }
        return false
    }
}
