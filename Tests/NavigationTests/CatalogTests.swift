import Foundation
import Navigation
import Testing

/// What the catalog (`GET /v1/screens`) tells a native shell: input kinds and autofill hints,
/// length and pattern rules as data, list items with their fields, URL and date-time types,
/// a label for every field and event, the app's name, and a version that changes with a deploy.
@Suite struct CatalogTests {
    struct Photo: Codable, Sendable {
        var id: Int
        var url: URL
        var takenAt: Date
        var caption: String?
    }

    struct SignUp: Codable, Sendable {
        @Identifier var email: String
        @Password var password: String
        var code: String
    }

    enum Album: ScreenType {
        static let name = "album"
        static let presentation = ScreenPresentation(
            title: "Album",
            fields: [
                "email": .init(label: "E-mail", input: .email, autofill: .username),
                "password": .init(label: "Password", autofill: .newPassword, length: TextLimit(characters: 15...128)),
                "code": .init(label: "Code", input: .number, autofill: .oneTimeCode, pattern: "[0-9]{6}"),
                "url": .init(display: .image), "cover": .unlabeled("Cover"),
            ],
            events: ["register": .primary("Register")],
            itemActions: [ItemAction("photos", opens: "view", with: "photoId", title: "caption")])
        struct Props: Codable, Sendable {
            var photos: [Photo]
            var cover: Photo
            var tags: [String]
        }
        struct Open: Codable, Sendable { var photoId: Int }
        enum Output: ScreenOutput {
            case register(SignUp), view(Open)
            static let events: [OutputEvent<Output>] = [.event("register", Output.register), .event("view", Output.view)]
        }
    }

    struct Root: Coordinator {
        static let typeName = "Root"
        mutating func start(_ context: inout Context) throws {}
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
    }

    static let app = NavigationApp(displayName: "Photos", screens: [Album.self], coordinators: [Root.self], root: { _ in Root() })

    static func screen(_ app: NavigationApp, _ name: String) -> [String: JSONValue] {
        app.catalog().objectValue?["screens"]?.arrayValue?.compactMap(\.objectValue).first { $0["name"] == .string(name) } ?? [:]
    }

    static func field(_ name: String, in fields: JSONValue?) -> [String: JSONValue] {
        fields?.arrayValue?.compactMap(\.objectValue).first { $0["name"] == .string(name) } ?? [:]
    }

    @Test func inputKindsAutofillAndRulesAreData() throws {
        #expect(Self.app.problems == [])
        let fields = Self.screen(Self.app, "album")["presentation"]?.objectValue?["fields"]?.objectValue ?? [:]
        #expect(fields["email"] == ["label": "E-mail", "input": "email", "autofill": "username"])
        #expect(fields["password"] == ["label": "Password", "autofill": "new-password", "minLength": 15, "maxLength": 128])
        #expect(fields["code"] == ["label": "Code", "input": "number", "autofill": "one-time-code", "pattern": "[0-9]{6}"])
        #expect(fields["url"] == ["display": "image"])
        #expect(fields["cover"] == ["label": "", "accessibilityLabel": "Cover"])
    }

    @Test func listItemsObjectsURLsAndDatesAreTyped() throws {
        let props = Self.screen(Self.app, "album")["props"]
        let photos = Self.field("photos", in: props)
        #expect(photos["type"] == "array")
        let item = photos["items"]?.objectValue ?? [:]
        #expect(item["type"] == "object")
        #expect(item["name"] == nil, "an item has no name of its own")
        let members = item["fields"]
        #expect(Self.field("id", in: members)["type"] == "integer")
        #expect(Self.field("url", in: members)["type"] == "url")
        #expect(Self.field("takenAt", in: members)["type"] == "date-time")
        #expect(Self.field("caption", in: members)["optional"] == true)
        let cover = Self.field("cover", in: props)
        #expect(cover["type"] == "object")
        #expect(Self.field("takenAt", in: cover["fields"])["accessibilityLabel"] == "Taken at")
        #expect(Self.field("tags", in: props)["items"] == ["type": "string"])
    }

    @Test func everyFieldAndEventHasAnAccessibilityLabel() throws {
        let album = Self.screen(Self.app, "album")
        #expect(Self.field("cover", in: album["props"])["accessibilityLabel"] == "Cover")
        #expect(Self.field("photos", in: album["props"])["accessibilityLabel"] == "Photos")
        let register = Self.field("register", in: album["events"])
        #expect(register["accessibilityLabel"] == "Register")
        #expect(Self.field("email", in: register["fields"])["accessibilityLabel"] == "E-mail")
        #expect(Self.field("view", in: album["events"])["accessibilityLabel"] == "View")
        let system = Self.app.catalog().objectValue?["systemEvents"]
        #expect(Self.field("selectTab", in: system)["accessibilityLabel"] == "Select tab")
    }

    @Test func anEmptyLabelWithoutAnAccessibilityLabelIsAProblem() throws {
        let screen = ScreenDefinition(
            "mute", props: [.string("message"), .string("_")], events: [EventDeclaration("go")],
            presentation: ScreenPresentation(
                fields: [
                    "message": .label(""), "other": .init(label: "Other", accessibilityLabel: " "),
                    "short": .init(label: "Short", length: TextLimit(characters: 1...2), pattern: "(unclosed"),
                ],
                events: ["go": .init(label: "")]))
        let app = NavigationApp(
            displayName: " ", screens: [screen], coordinators: [Root.self], root: { _ in Root() })
        let problems = app.problems
        #expect(problems.contains("the app's display name is empty; leave it out or name the app"))
        #expect(problems.contains { $0.contains("field \"message\" has an empty label and no accessibility label") })
        #expect(problems.contains { $0.contains("field \"other\" has an empty accessibility label") })
        #expect(problems.contains { $0.contains("event \"go\" has an empty label") })
        #expect(problems.contains { $0.contains("field \"_\" derives no label from its name") })
        #expect(problems.contains { $0.contains("field \"short\" has a pattern that is no regular expression") })
    }

    @Test func theCatalogNamesTheAppAndHasAVersionThatFollowsItsContent() throws {
        let catalog = Self.app.catalog().objectValue ?? [:]
        #expect(catalog["app"] == ["name": "Photos"])
        let version = try #require(catalog["version"]?.stringValue)
        #expect(version.count == 16 && version.allSatisfy(\.isHexDigit))
        #expect(Self.app.catalogDocument().etag == "\"\(version)\"")
        // The same declarations give the same version; a changed one another.
        let again = NavigationApp(displayName: "Photos", screens: [Album.self], coordinators: [Root.self], root: { _ in Root() })
        #expect(again.catalog().objectValue?["version"]?.stringValue == version)
        let renamed = NavigationApp(displayName: "Pictures", screens: [Album.self], coordinators: [Root.self], root: { _ in Root() })
        #expect(renamed.catalog().objectValue?["version"]?.stringValue != version)
    }
}
